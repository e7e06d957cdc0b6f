"""combined: a kernel's stages feed one another. Whole kernels are run in Python over numpy arrays:
each atomic reduction equals the reduction of the stored results (a total, per-group sums and
counts, a peak), and a loss responds to its target. The helpers are tested in test_helpers.py.
"""
from __future__ import annotations

import math
import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from synthesis.categories import generate
from tests.synthesis.python_run import draw_inputs, run, stored

SEEDS = st.integers(0, 2**32 - 1)


def _reductions(spec):
    """(kind, the atomic's target, its index array or None) for each atomic in the kernel body."""
    found = []
    for line in spec.source.splitlines():
        line = line.strip()
        if line.startswith("wp.atomic_"):
            op = line[len("wp.atomic_"):line.index("(")]
            target, index, value = (p.strip() for p in line[line.index("(") + 1:-1].split(",", 2))
            found.append((op, target, index, value))
    return found


def live_threads(spec, inputs) -> np.ndarray:
    """Which threads get past the kernel's early return (common.early_return's three guards: a padded
    launch's `tid >= n`, a mask `m[tid] == 0`, a flag bit `(f[tid] & BIT) == 0`), evaluated over all
    threads at once."""
    guard = re.search(r"tid = wp\.tid\(\)\n    if (.+):\n        return\n", spec.source)
    tid = np.arange(spec.dim[0])
    if guard is None:
        return np.ones(tid.shape, dtype=bool)
    env = {a.name: (inputs[a.name] if a.role != "scalar" else a.value) for a in spec.args}
    env.update((k, int(v)) for k, v in re.findall(r"^(\w+) = wp\.constant\((\d+)\)", spec.source, re.M))
    return ~np.asarray(eval(guard.group(1).replace("[tid]", ""), {}, dict(env, tid=tid)))


def stage_output(spec, value: str) -> str:
    """The launch-shaped output the stage's result `value` is stored in (an intermediate the kernel
    also keeps, a contact's depth, is stored in another)."""
    outputs = [a.name for a in spec.args if a.role in ("output", "inout") and a.shape == spec.dim]
    return next(o for o in outputs if re.search(rf"^\s+{o}\[tid\] \+?= .*\b{value}\b", spec.source, re.M))


@settings(max_examples=25, deadline=None, derandomize=True)
@given(SEEDS)
def test_each_atomic_reduction_reduces_the_stored_results(seed):
    spec = generate("combined", seed)
    inputs = draw_inputs(spec, seed)
    got = run(spec, inputs)
    reductions = _reductions(spec)
    if not reductions:
        return
    result = stored(spec, inputs, got, stage_output(spec, reductions[0][3]))
    index_arrays = {a.name: inputs[a.name] for a in spec.args if a.role == "index"}
    for op, target, index, value in reductions:
        slots = got[target]
        if index == "0":
            want = result.max(initial=0.0) if op == "max" else result.sum()
            assert math.isclose(slots[0], want, rel_tol=1e-9, abs_tol=1e-9)
        else:
            groups = next(v for k, v in index_arrays.items() if index.startswith(k))
            weights = np.ones_like(result) if value == "1" else result
            # a thread that returned early adds nothing: its stored result is 0 and so is its count
            live = live_threads(spec, inputs)
            want = np.bincount(groups[live], weights=weights[live], minlength=len(slots))
            np.testing.assert_allclose(slots, want, atol=1e-9)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(SEEDS)
def test_a_loss_is_the_helpers_loss_of_the_source_minus_the_target(seed):
    spec = generate("combined", seed)
    if "-> loss" not in spec.description:
        return
    inputs = draw_inputs(spec, seed)
    target = next(a.name for a in spec.args if a.name in ("target", "label", "y_true", "reference"))
    shifted = dict(inputs, **{target: inputs[target] + 0.5})
    base, moved = run(spec, inputs), run(spec, shifted)
    out = stage_output(spec, "loss")
    base, moved = stored(spec, inputs, base, out), stored(spec, shifted, moved, out)
    # a loss is >= 0, 0 where the source meets the target, and it changes when the target moves
    assert np.all(base >= -1e-12) and not np.allclose(base, moved)


# What each stage never takes (combined.STAGE_SOURCES): a state a step replaces (a position after
# walls), a bounded friction force, a slope or flux, anywhere; a force, a vector quantity or a root
# never gated like a feature; a root or an iteration (bounded already) or a length never soft-clipped.
NEVER_A_SOURCE = ("reflecting walls", "stick-slip friction", "upwind difference", "minmod")
NOT_FOR_STAGE = {
    "gate": ("penalty contact", "vector quantity", "Newton", "bisection", "Taylor series", "Kepler"),
    "soft clip": ("Newton", "bisection", "Kepler", "vector quantity (speed)", "vector quantity (distance)",
                  "vector quantity (kinetic energy)"),
}


def test_each_stage_takes_only_computations_it_is_written_for():
    stages = set()
    for seed in range(1500):
        spec = generate("combined", seed)
        stage = re.search(r"-> ([\w ]+)", spec.description).group(1)
        stages.add(stage)
        assert not any(f in spec.description for f in NEVER_A_SOURCE + NOT_FOR_STAGE.get(stage, ())), spec.source
    assert stages == {"loss", "soft clip", "gate", "blend"}
