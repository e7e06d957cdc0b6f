"""combined: each helper computes what its name says, and a kernel's stages feed one another.

The helpers are run from the source the kernel writes (`@wp.func` bodies in Python) and compared
with the formula each name stands for. Whole kernels are run in Python over numpy arrays: the
stored result is what the stage computes from its sources, and each atomic reduction equals the
reduction of the stored results (a total, per-group sums and counts, a peak).
"""
from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synthesis.categories import generate
from synthesis.categories.combined import HELPERS, helper
from synthesis.exprgen import KernelWriter
from tests.synthesis.python_run import _wp, draw_inputs, run

SEEDS = st.integers(0, 2**32 - 1)
R = np.linspace(-4.0, 4.0, 161)


def helper_function(kind: str):
    """The helper `kind` as the kernel's module defines it, made callable in Python."""
    w = KernelWriter(random.Random(0), "k_0123456789", "combined", 0, (8,))
    name = helper(w, kind)
    names = {"wp": _wp(), "float": float}
    exec(w.helpers[0], names)
    return names[name]


@pytest.mark.parametrize("delta", [0.5, 1.0, 1.5])
def test_huber_is_quadratic_inside_delta_linear_outside_and_continuous(delta):
    f = helper_function("huber")
    got = np.array([f(r, delta) for r in R])
    want = np.where(np.abs(R) <= delta, 0.5 * R * R, delta * (np.abs(R) - 0.5 * delta))
    np.testing.assert_allclose(got, want, atol=1e-12)
    assert abs(f(delta + 1e-9, delta) - f(delta - 1e-9, delta)) < 1e-8


def test_the_smooth_losses_are_even_zero_at_zero_and_grow_with_the_residual():
    for kind, formula in (("pseudo_huber", lambda r, d: d * d * (math.sqrt(1 + (r / d) ** 2) - 1)),
                          ("cauchy", lambda r, c: 0.5 * c * c * math.log(1 + (r / c) ** 2)),
                          ("log_cosh", lambda r: math.log(math.cosh(r))),
                          ("squared_error", lambda r: 0.5 * r * r)):
        f = helper_function(kind)
        knobs = (1.5,) if HELPERS[kind].knobs else ()
        got = np.array([f(r, *knobs) for r in R])
        np.testing.assert_allclose(got, [formula(r, *knobs) for r in R], atol=1e-12)
        assert f(0.0, *knobs) == 0.0 and np.allclose(got, got[::-1])
        assert np.all(np.diff(got[R >= 0]) > 0)


def test_soft_clip_passes_small_values_and_never_exceeds_its_limit():
    f = helper_function("soft_clip")
    for limit in (0.5, 1.0, 2.0):
        got = np.array([f(x, limit) for x in R])
        assert np.all(np.abs(got) < limit) and np.all(np.diff(got) > 0)
        assert abs(f(0.01 * limit, limit) - 0.01 * limit) < 1e-6 * limit


def test_sigmoid_and_blend():
    sigmoid, blend = helper_function("sigmoid"), helper_function("blend")
    np.testing.assert_allclose([sigmoid(x) for x in R], 1 / (1 + np.exp(-R)), atol=1e-12)
    assert blend(2.0, 6.0, 0.0) == 2.0 and blend(2.0, 6.0, 1.0) == 6.0 and blend(2.0, 6.0, 0.25) == 3.0


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
    out = next(a.name for a in reversed(spec.args) if a.role == "output" and a.shape == spec.dim)
    result = got[out]
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
    out = next(a.name for a in reversed(spec.args) if a.role == "output" and a.shape == spec.dim)
    # a loss is >= 0, 0 where the source meets the target, and it changes when the target moves
    assert np.all(base[out] >= 0.0) and not np.allclose(base[out], moved[out])
