"""combined: a kernel's stages feed one another. Whole kernels are run in Python over numpy arrays:
each atomic reduction equals the reduction of the stored results (a total, per-group sums and
counts, a peak), and a loss responds to its target. The helpers are tested in test_helpers.py.
"""
from __future__ import annotations

import math

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


@settings(max_examples=25, deadline=None, derandomize=True)
@given(SEEDS)
def test_each_atomic_reduction_reduces_the_stored_results(seed):
    spec = generate("combined", seed)
    inputs = draw_inputs(spec, seed)
    got = run(spec, inputs)
    out = next(a.name for a in reversed(spec.args) if a.role in ("output", "inout") and a.shape == spec.dim)
    result = stored(spec, inputs, got, out)
    index_arrays = {a.name: inputs[a.name] for a in spec.args if a.role == "index"}
    for op, target, index, value in _reductions(spec):
        slots = got[target]
        if index == "0":
            want = result.max(initial=0.0) if op == "max" else result.sum()
            assert math.isclose(slots[0], want, rel_tol=1e-9, abs_tol=1e-9)
        else:
            groups = next(v for k, v in index_arrays.items() if index.startswith(k))
            weights = np.ones_like(result) if value == "1" else result
            # a thread that returned early adds nothing: its stored result is 0 and so is its count
            live = np.ones_like(result, dtype=bool)
            if any(a.name in ("n", "count", "num") and a.role == "scalar" for a in spec.args):
                bound = next(a.value for a in spec.args if a.name in ("n", "count", "num") and a.role == "scalar")
                live[bound:] = False
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
    out = next(a.name for a in reversed(spec.args) if a.role in ("output", "inout") and a.shape == spec.dim)
    base, moved = stored(spec, inputs, base, out), stored(spec, shifted, moved, out)
    # a loss is >= 0, 0 where the source meets the target, and it changes when the target moves
    assert np.all(base >= -1e-12) and not np.allclose(base, moved)
