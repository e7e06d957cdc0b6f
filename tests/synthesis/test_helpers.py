"""Each helper of synthesis/categories/helpers.py computes what its name says.

A helper is run from the source a kernel writes (its `@wp.func` body, in Python) and compared with
the formula its name stands for, over residuals or values from -4 to 4.
"""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

from synthesis.categories.helpers import HELPERS, helper
from synthesis.exprgen import KernelWriter
from tests.synthesis.python_run import _wp

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


def test_softplus_gaussian_and_smoothstep():
    softplus, gaussian, smoothstep = (helper_function(k) for k in ("softplus", "gaussian", "smoothstep"))
    np.testing.assert_allclose([softplus(x) for x in R], np.log1p(np.exp(R)), atol=1e-12)
    np.testing.assert_allclose([gaussian(x, 0.5) for x in R], np.exp(-R * R / 0.5), atol=1e-12)
    t = np.clip((R + 0.5) / 1.5, 0.0, 1.0)
    np.testing.assert_allclose([smoothstep(x, -0.5, 1.0) for x in R], t * t * (3 - 2 * t), atol=1e-12)
    assert smoothstep(-0.5, -0.5, 1.0) == 0.0 and smoothstep(1.0, -0.5, 1.0) == 1.0


def test_every_helper_is_tested():
    tested = {"huber", "pseudo_huber", "cauchy", "log_cosh", "squared_error", "soft_clip", "sigmoid", "blend",
              "softplus", "gaussian", "smoothstep"}
    assert set(HELPERS) == tested
