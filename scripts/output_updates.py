"""Outputs a kernel updates (`out[i] += value`, `out[i] = wp.lerp(out[i], value, rate)`, or the explicit
blend `(1.0 - rate) * out[i] + rate * value`) whose value means nothing summed or blended over steps:
one that wraps around (an angle, a fractional part, a sign) updated at all, a unit or clamped value
summed (`exprgen.value_kind` decides, read off the kernel's final source), or any value blended into an
output whose name does not say it is a running average of a statistic or a signal (`naming.smoothed`:
`running_loss`, `blurred_ema`; a `clipped` or `force` output smoothed over launches tracks nothing). Prints, per
category, how many update lines there are and how many of them are such.

    python scripts/output_updates.py [-n 10000] [-s 123]

Uses the pipeline's own plan (run seed -> per-kernel seeds, categories round-robin), as
`scripts/diversity.py` does. Another revision's generators: `PYTHONPATH=<its checkout> python ...`.
"""
from __future__ import annotations

import argparse
import collections
import re

from synthesis.categories import generate
from synthesis.exprgen import helper_bodies, value_kind
from synthesis.naming import smoothed
from synthesis.stages import canonical_categories, task_for

SUMMED = re.compile(r"^\s*(\w+)\[([^\]]*)\] \+= (.*)$")
LERPED = re.compile(r"^\s*(\w+)\[([^\]]*)\] = wp\.lerp\(\1\[\2\], (.*), (\w+)\)$")
BLENDED = re.compile(r"^\s*(\w+)\[([^\]]*)\] = \(1\.0 - (\w+)\) \* \1\[\2\] \+ \3 \* (.*)$")


def updates(source: str) -> list[tuple[str, str, str]]:
    """(how: "+=" or "blend", the array, the new value) for each line of `source` that updates an output."""
    found = []
    for line in source.splitlines():
        if m := SUMMED.match(line):
            found.append(("+=", m.group(1), m.group(3)))
        elif m := LERPED.match(line):
            found.append(("blend", m.group(1), m.group(3)))
        elif m := BLENDED.match(line):
            value = m.group(4)
            found.append(("blend", m.group(1), value[1:-1] if value.startswith("(") and value.endswith(")") else value))
    return found


KERNEL_DEF = re.compile(r"^@wp\.kernel.*\ndef (\w+)\(", re.M)


def meaningless(source: str) -> list[str]:
    """The update lines' values of `source` that wrap, are bounded and summed (the kernel's body read with
    its helpers' returns, as the generator reads it), or are blended into an output not named as a
    running average."""
    bodies = helper_bodies([source])
    lines = bodies.pop(KERNEL_DEF.search(source).group(1))
    bad = []
    for how, array, value in updates(source):
        if how == "blend" and not smoothed(array):
            bad.append(value)
            continue
        try:
            kind = value_kind(lines, value, bodies)
        except SyntaxError:  # a value spanning lines (none is written so today)
            continue
        if kind == "wraps" or kind == "bounded" and how == "+=":
            bad.append(value)
    return bad


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", "--count", type=int, default=10000)
    ap.add_argument("-s", "--seed", type=int, default=123)
    args = ap.parse_args()
    cats = canonical_categories(())
    total, bad = collections.Counter(), collections.Counter()
    for i in range(args.count):
        t = task_for(i, cats, args.seed)
        source = generate(t.category, t.seed).source
        total[t.category] += len(updates(source))
        bad[t.category] += len(meaningless(source))
    print(f"{'category':18s} {'updates':>8s} {'meaningless':>12s}")
    for cat in cats:
        print(f"{cat:18s} {total[cat]:8d} {bad[cat]:12d}")
    print(f"all: {sum(bad.values())} of {sum(total.values())} output updates sum or blend a value that means "
          f"nothing so (target 0)")


if __name__ == "__main__":
    main()
