"""Multi-way conditionals: if/elif/else chains, nested branches, compound conditions."""
from __future__ import annotations

import random

from synthesis.categories.common import add_inputs, add_output, pick_dim, realistic_extras
from synthesis.exprgen import ARITH_OPS, Expr, ExprGen, KernelWriter, fmt_float, join_q
from synthesis.sampled_run import degenerate_written


def threshold_tests(w: KernelWriter, gen: ExprGen, count: int) -> list[str] | None:
    """`count` tests of one quantity against thresholds in order (`q < -0.5`, `q < 1.0`, ...), as
    piecewise code is written: the quantity a float input, its magnitude or a difference of two
    inputs (named first), the thresholds inside its range on the input grid, so every arm is taken.
    None when the kernel loads no float input."""
    rng = w.rng
    loads = [n for n in gen.loads if w.arg(n).dtype == "float32"]
    if not loads:
        return None
    name = rng.choice(loads)
    first, spec = w.load(name), w.arg(name)
    others = [w.load(n) for n in loads if n != name]
    form = rng.choice(["value", "magnitude", "difference"] if others else ["value", "magnitude"])
    if form == "value":
        quantity, low, high = first.src, spec.low, spec.high
    elif form == "magnitude":
        quantity = w.assign(Expr(f"wp.abs({first.src})", "float32", first.mag, first.q), prefix="mag").src
        low, high = 0.0, max(abs(spec.low), abs(spec.high))
    else:
        other = rng.choice(others)
        quantity = w.assign(Expr(f"{first.src} - {other.src}", "float32", first.mag + other.mag,
                                 join_q(first.q, other.q), atom=False), prefix="diff").src
        low, high = -first.mag - other.mag, first.mag + other.mag
    # thresholds on a 0.25 grid strictly inside the middle of the range (inputs are spread over it)
    span = high - low
    grid = [low + span * k / 8 for k in range(2, 7)]
    grid = sorted({round(g * 4) / 4 for g in grid})
    if len(grid) < count:
        return None
    thresholds = sorted(rng.sample(grid, count))
    if rng.random() < 0.5:
        op = rng.choice(["<", "<="])
    else:
        op, thresholds = rng.choice([">", ">="]), thresholds[::-1]
    w.feature("piecewise thresholds")
    return [f"{quantity} {op} {fmt_float(t)}" for t in thresholds]


def branch_chain(w: KernelWriter, gen: ExprGen, targets: list[Expr], depth: int, held: dict[str, str],
                 allow_else: bool = True) -> set[str]:
    """An if/elif(/else) chain assigning some of `targets` in each arm: half the time a piecewise
    chain over ordered thresholds of one quantity, else compound conditions.

    A nested chain assigns only what its arm has not, and a chain that follows another has no
    `else`, so no assignment is overwritten on every path before it is read. `held`: target -> the
    text of the value it holds before the chain, where known: no arm assigns that value again, and
    no two arms of a chain assign one target the same value (the branch would decide nothing).
    Returns the targets some arm assigns (nested chains included); `held` forgets them.
    """
    rng = w.rng
    arms = rng.randint(2, 4)
    has_else = allow_else and rng.random() >= 0.3
    # a nested chain tests compound conditions: thresholds of a quantity an enclosing test confines
    # could be decided there (`if mag >= 0.75` in the `else` of `if mag <= 1.25`)
    tests = threshold_tests(w, gen, arms - 1 if has_else else arms) if rng.random() < 0.5 and depth > 0 else None
    given: set[tuple[str, str]] = set()
    changed: set[str] = set()
    for arm in range(arms):
        keyword = "if" if arm == 0 else "elif"
        last = arm == arms - 1 and has_else
        test = tests[arm] if tests is not None and not last else None
        header = "else:" if last else f"{keyword} {test if test is not None else gen.condition(1).src}:"
        with w.block(header):
            assigned = rng.sample(targets, rng.randint(1, len(targets)))
            set_here: dict[str, str] = {}  # target -> the value this arm gave it
            for t in assigned:
                for _ in range(12):
                    value = gen.float_expr(rng.randint(0, 2), exact=t.q is not None)
                    if value.src != t.src and value.src != held.get(t.src) and (t.src, value.src) not in given \
                            and set_here.get(value.src) != t.src:
                        break  # not `r1 = r1`, not the value r1 holds, not another arm's, not `r3 = r2; r2 = r3`
                given.add((t.src, value.src))
                set_here[t.src] = value.src
                w.emit(f"{t.src} = {value.src}")
                w.note_varying(t.src, value.src)
            rest = [t for t in targets if t not in assigned]
            if depth > 0 and rest and rng.random() < 0.4:
                # the next arms run where this one did not: what the nested chain assigns still holds there
                changed |= branch_chain(w, gen, rest, depth - 1, dict(held))
                w.feature("nested branches")
        if last:
            break
    changed |= {src for src, _ in given}
    for name in changed:
        held.pop(name, None)  # after the chain: one of several values
    return changed


# Draws per kernel before one whose outputs, run at 64 sampled points, are constant or a copy of an
# input at 90% of them or more is kept regardless (about 1 draw in 10 is redrawn).
MAX_DRAWS = 8


def generate(rng: random.Random, name: str, seed: int):
    """A branch chain kernel. Its outputs pass through branches, which realism's point evaluator
    does not follow; the kernel is run at sampled points (synthesis.sampled_run) and redrawn while
    an output is the same everywhere or an input copied through (e.g. `if 2.0 > b: r = b`)."""
    for _ in range(MAX_DRAWS):
        spec = draw_kernel(rng, name, seed)
        if not degenerate_written(spec, points=64, share=0.9):
            return spec
    return spec


def draw_kernel(rng: random.Random, name: str, seed: int):
    w = KernelWriter(rng, name, "multi_conditional", seed, pick_dim(rng, nd_prob=0.15))
    loads = add_inputs(w, "float32", rng.randint(1, 3))
    gen = ExprGen(w, tuple(rng.sample(ARITH_OPS, 5)), loads=loads)
    realistic_extras(w, gen, loads)
    targets, inits = [], {}
    for _ in range(rng.randint(1, 3)):
        init = gen.float_expr(1, exact=True)
        # Targets stay exact (so later conditions may read them) when every arm assigns exact values.
        exact = rng.random() < 0.5
        targets.append(w.declare(w.fresh("r"), init, 64.0 if exact else 256.0, 20 if exact else None))
        inits[targets[-1].src] = init.src
    chains = rng.randint(1, 2)
    held = {t.src: w.defs.get(t.src, init) for t, init in zip(targets, inits.values())}
    for chain in range(chains):
        branch_chain(w, gen, targets, 1, held, allow_else=chain == 0)
    for t in targets:
        if not any(line.startswith("        ") and line.strip().startswith(f"{t.src} = ") for line in w.lines):
            w.reassigned.discard(t.src)  # no branch assigns it: it holds its first value, judge that
            w.defs[t.src] = inits[t.src]
        w.store(add_output(w), gen.meaningful(t))
    w.drop_dead_stores()
    w.feature(f"{chains} branch chain(s), {len(targets)} branch-assigned values")
    return w.finish("Multi-way conditional kernel")
