"""Each piecewise form of multi_conditional computes what its name says.

A form is built into a kernel of its own over a test quantity `a` (an input in [-2, 2]), and the
kernel's Python body is run over inputs the test chooses. The checks are properties of the function
(continuity, symmetry, limits, which side a difference is taken on), never the generator's text.
"""
from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synthesis.categories.multi_conditional import PIECEWISE_FORMS, Draw, Quantity
from synthesis.exprgen import KernelWriter
from synthesis.sampled_run import _runnable_source, _Warp
from tests.synthesis.python_run import Shaped

N = 257
GRID = [-2.0 + 4.0 * k / (N - 1) for k in range(N)]  # step 1/64: on the inputs' grid, 0 included
SEEDS = st.integers(0, 2**32 - 1)
PROPERTY = settings(max_examples=12, deadline=None, derandomize=True)


class OnA(Draw):
    """A Draw whose tested quantity is always the input `a` as it is."""

    def quantity(self, kinds=("value",), prefix="diff") -> Quantity:
        return Quantity(self.w.load("a"), -2.0, 2.0)


def build(form: str, seed: int, n: int = N):
    """(the kernel holding only `form` over inputs a and b, its outputs' names in order, the named
    inputs the form added: role hint -> array name); None where the form cannot be drawn."""
    w = KernelWriter(random.Random(seed), "k", "multi_conditional", seed, (n,))
    w.output_update_share = 0.0  # the form's values as its formula gives them, not updated in place
    loads = [w.add_array(h, "float32", "input", low=-2.0, high=2.0) for h in ("a", "b")]
    draw = OnA(w, loads)
    results = PIECEWISE_FORMS[form].build(draw)
    if not results:
        return None
    outputs = [w.add_array(r.hint, r.value.type, "output") for r in results]
    for name, r in zip(outputs, results):
        w.store(name, r.value)
    return w.finish("test"), outputs, dict(draw.named)


def run(spec, inputs: dict[str, list[float]]) -> dict[str, list]:
    """The kernel's body as Python, thread by thread, over `inputs` (every other input zero)."""
    wp = _Warp()
    names = {"wp": wp, "float": float, "int": int, "min": min, "max": max, "abs": abs}
    exec(compile(_runnable_source(spec), spec.name, "exec"), names)
    n = spec.dim[0]
    outputs = {a.name: [None] * n for a in spec.args if a.role == "output"}
    args = [a.value if a.role == "scalar" else outputs[a.name] if a.role == "output" else Shaped(inputs.get(a.name, [0.0] * n))
            for a in spec.args]
    for t in range(n):
        wp.current = (t,)
        names[spec.name](*args)
    return outputs


def over_a(form: str, seed: int, b: float = 0.0):
    """f(a) over GRID for the form's first output, or None where the form is not drawn."""
    built = build(form, seed)
    if built is None:
        return None
    spec, outputs, _ = built
    return run(spec, {"a": GRID, "b": [b] * N})[outputs[0]]


def continuous(f: list[float], slope: float) -> bool:
    step = GRID[1] - GRID[0]
    return all(abs(y - x) <= slope * step + 1e-9 for x, y in zip(f, f[1:]))


def mirrored(f: list[float], sign: float) -> bool:
    """f(-a) == sign * f(a) on GRID (symmetric about 0)."""
    return all(math.isclose(f[N - 1 - k], sign * f[k], abs_tol=1e-12) for k in range(N))


@PROPERTY
@given(SEEDS)
def test_a_saturating_ramp_rises_from_0_to_1_between_its_edges(seed):
    f = over_a("saturating ramp", seed)
    if f is None:
        return
    assert f[0] == 0.0 and f[-1] == 1.0 and all(0.0 <= v <= 1.0 for v in f)
    assert all(x <= y for x, y in zip(f, f[1:])) and continuous(f, 2.0)
    assert any(0.0 < v < 1.0 for v in f)


def band_edges(f: list[float]) -> tuple[float, float]:
    """(l, u): where f(a) = a - u above the band and a - l below it (one of each), checked on GRID."""
    above = {round(a - v, 9) for a, v in zip(GRID, f) if v > 0.0}
    below = {round(a - v, 9) for a, v in zip(GRID, f) if v < 0.0}
    assert len(above) == 1 and len(below) == 1
    return below.pop(), above.pop()


@PROPERTY
@given(SEEDS)
def test_a_dead_zone_is_zero_inside_the_band_and_the_excess_beyond_it(seed):
    f = over_a("dead zone", seed)
    assert continuous(f, 1.0) and f[N // 2] == 0.0
    lower, upper = band_edges(f)
    assert lower < 0.0 < upper
    assert all(v == (a - upper if a > upper else a - lower if a < lower else 0.0) for a, v in zip(GRID, f))


def test_some_dead_zones_have_a_band_of_their_own_below_zero():
    edges = [band_edges(over_a("dead zone", seed)) for seed in range(40)]
    assert any(-lower != upper for lower, upper in edges) and any(-lower == upper for lower, upper in edges)


@PROPERTY
@given(SEEDS)
def test_the_huber_loss_is_quadratic_near_zero_and_linear_far_out(seed):
    f = over_a("Huber loss", seed)
    assert mirrored(f, 1.0) and continuous(f, 2.0) and f[N // 2] == 0.0
    assert all(math.isclose(f[N // 2 + k], 0.5 * GRID[N // 2 + k] ** 2) for k in range(3))
    tail = f[-4:]
    assert math.isclose(tail[0] - 2 * tail[1] + tail[2], 0.0, abs_tol=1e-9)  # linear beyond delta
    assert all(f[k - 1] - 2 * f[k] + f[k + 1] >= -1e-9 for k in range(1, N - 1))  # convex


@PROPERTY
@given(SEEDS)
def test_an_activation_passes_positive_values_and_damps_negative_ones(seed):
    f = over_a("activation", seed)
    assert all(v == a for a, v in zip(GRID, f) if a > 0.0)
    assert all(a < v < 0.0 for a, v in zip(GRID, f) if a < 0.0)
    assert f[N // 2] == 0.0 and continuous(f, 1.0)


@PROPERTY
@given(SEEDS)
def test_quantisation_counts_the_thresholds_reached(seed):
    f = over_a("quantisation into levels", seed)
    if f is None:
        return
    assert all(isinstance(v, int) for v in f)
    assert all(x <= y for x, y in zip(f, f[1:]))
    assert sorted(set(f)) == list(range(max(f) + 1)) and max(f) in (2, 3)


@PROPERTY
@given(SEEDS)
def test_a_spline_weight_peaks_at_its_centre_and_sums_to_one_over_shifts(seed):
    spec, outputs, _ = build("spline weight", seed)
    grid = [-4.0 + k / 64 for k in range(8 * 64 + 1)]  # wider than the inputs: the whole support
    f = run(_resized(spec, len(grid)), {"a": grid})[outputs[0]]
    peak = max(f)
    top = f.index(peak)
    assert peak in (1.0, 4.0 / 6.0) and all(v >= 0.0 for v in f) and f[0] == f[-1] == 0.0
    assert all(math.isclose(f[top + k], f[top - k], abs_tol=1e-12) for k in range(min(top, len(grid) - 1 - top)))
    # copies shifted by one support unit sum to one (partition of unity), whatever the offset; the
    # support is 4 units (cubic B-spline) or 2 (hat), open, on the 1/64 grid
    units = 4.0 if peak < 1.0 else 2.0
    step = round((sum(1 for v in f if v > 0.0) + 1) / units)
    for offset in range(step):
        total = sum(f[offset::step])
        assert math.isclose(total, 1.0, rel_tol=1e-9), (offset, total)


def _resized(spec, n: int):
    """The kernel over n threads (its 1-D launch and array lengths); the body reads only its own
    element, so nothing else changes."""
    from dataclasses import replace

    args = tuple(replace(a, shape=(n,)) if a.shape else a for a in spec.args)
    return replace(spec, dim=(n,), args=args)


def knees(f: list[float]) -> tuple[float, float, float]:
    """(low knee, high knee, slope beyond): f is the identity on [low, high] and rises at one slope
    below 1 beyond each knee, from the knee's value."""
    inside = [a for a, v in zip(GRID, f) if v == a]
    low, high = inside[0], inside[-1]
    assert inside == [a for a in GRID if low <= a <= high]
    slopes = {round((v - high) / (a - high), 9) for a, v in zip(GRID, f) if a > high}
    slopes |= {round((v - low) / (a - low), 9) for a, v in zip(GRID, f) if a < low}
    assert len(slopes) == 1
    return low, high, slopes.pop()


@PROPERTY
@given(SEEDS)
def test_a_soft_clip_is_the_identity_inside_the_knee_and_flatter_beyond(seed):
    f = over_a("soft clipping knee", seed)
    assert continuous(f, 1.0) and all(x < y for x, y in zip(f, f[1:]))
    low, high, slope = knees(f)
    assert low < 0.0 < high and 0.0 < slope < 1.0


def test_some_soft_clips_have_knees_of_their_own_and_a_ratio_their_caller_sets():
    drawn = [(knees(over_a("soft clipping knee", seed)), build("soft clipping knee", seed)[0]) for seed in range(60)]
    assert any(-low != high for (low, high, _), _ in drawn) and any(-low == high for (low, high, _), _ in drawn)
    ratios = [spec for _, spec in drawn if any(a.role == "scalar" and a.name in ("ratio", "gain_above", "slope_above")
                                              for a in spec.args)]
    assert ratios and len(ratios) < len(drawn)


@PROPERTY
@given(SEEDS)
def test_a_window_mask_keeps_the_value_on_one_interval_only(seed):
    f = over_a("window mask", seed, b=1.5)
    kept = [k for k, v in enumerate(f) if v == 1.5]
    assert set(f) == {0.0, 1.5} and kept == list(range(kept[0], kept[-1] + 1))


@PROPERTY
@given(SEEDS)
def test_a_quadrant_label_depends_on_which_side_of_each_centre_line_a_point_lies(seed):
    spec, outputs, _ = build("quadrant label", seed, n=16 * 16)
    axis = [-1.75 + 0.25 * k for k in range(16)]
    a = [x for x in axis for _ in axis]
    b = [y for _ in axis for y in axis]
    label = run(spec, {"a": a, "b": b})[outputs[0]]
    assert len(set(label)) == 4
    rows = [label[16 * r:16 * r + 16] for r in range(16)]
    cols = [label[c::16] for c in range(16)]
    changes = lambda seq: sum(1 for x, y in zip(seq, seq[1:]) if x != y)  # noqa: E731
    assert all(changes(r) <= 1 for r in rows) and all(changes(c) <= 1 for c in cols)


def _profile(n: int) -> list[float]:
    # on a 1/8 grid: runs of rises and falls of varying steepness, extrema, flat steps
    return [round(16 * math.sin(0.4 * k) * (1 + 0.3 * math.cos(0.9 * k))) / 8 for k in range(n)]


def neighbours(spec, u: list[float], k: int) -> tuple[float, float]:
    """u's elements beside k on the kernel's boundary: clamped, or wrapped (periodic)."""
    n = len(u)
    if "neighbour stencil (periodic)" in spec.description:
        return u[(k - 1) % n], u[(k + 1) % n]
    return u[max(k - 1, 0)], u[min(k + 1, n - 1)]


@PROPERTY
@given(SEEDS)
def test_an_upwind_difference_is_taken_on_the_side_the_flow_comes_from(seed):
    n = 64
    spec, outputs, named = build("upwind difference", seed, n=n)
    field = next(named[h] for h in named if h != "vel")
    u = _profile(n)
    vel = [(1.0 if k % 3 else -1.0) * 0.5 for k in range(n)]
    out = run(spec, {field: u, named["vel"]: vel})[outputs[0]]
    dts = set()
    for k in range(n):
        left, right = neighbours(spec, u, k)
        behind = u[k] - left if vel[k] > 0 else right - u[k]
        if behind != 0.0:
            dts.add(round((u[k] - out[k]) / (vel[k] * behind), 9))
        else:
            assert out[k] == u[k]
    assert len(dts) == 1 and 0.0 < dts.pop() <= 0.25


LIMITERS = ("minmod", "van Leer", "monotonized central", "superbee")


def limited_slope(limiter: str, left: float, right: float) -> float:
    if left * right <= 0.0:
        return 0.0
    return {"minmod": lambda: min(left, right, key=abs),
            "van Leer": lambda: 2 * left * right / (left + right),
            "monotonized central": lambda: math.copysign(min(2 * abs(left), 2 * abs(right), 0.5 * abs(left + right)), left),
            "superbee": lambda: math.copysign(max(min(2 * abs(left), abs(right)), min(abs(left), 2 * abs(right))), left),
            }[limiter]()


@PROPERTY
@given(SEEDS)
def test_a_slope_limiter_is_zero_at_an_extremum_and_else_its_limited_slope(seed):
    n = 64
    spec, outputs, named = build("minmod slope", seed, n=n)
    (field,) = named.values()
    u = _profile(n)
    out = run(spec, {field: u})
    limiter = next(name for name in LIMITERS if f"{name} limiter" in spec.description)
    assert set(out) in ({"slope"}, {"face_left", "face_right"}, {"slope", "face_left", "face_right"})
    limited = 0
    for k in range(n):
        left_value, right_value = neighbours(spec, u, k)
        left, right = u[k] - left_value, right_value - u[k]
        want = limited_slope(limiter, left, right)
        if "slope" in out:
            assert out["slope"][k] == pytest.approx(want, abs=1e-12)
        if "face_left" in out:  # MUSCL: the cell's value less and plus half its limited slope
            assert out["face_left"][k] == pytest.approx(u[k] - 0.5 * want, abs=1e-12)
            assert out["face_right"][k] == pytest.approx(u[k] + 0.5 * want, abs=1e-12)
        assert abs(want) <= 2 * max(abs(left), abs(right))  # never steeper than the data allows
        limited += want != 0.0 and abs(left) != abs(right)
    assert limited > n // 4


def test_slope_limiters_come_in_every_kind_on_both_boundaries_and_some_store_face_values():
    specs = [build("minmod slope", seed, n=64)[0] for seed in range(120)]
    for limiter in LIMITERS:
        assert any(f"{limiter} limiter" in s.description for s in specs), limiter
    assert {"neighbour stencil (periodic)" in s.description for s in specs} == {True, False}
    faces = sum("MUSCL" in s.description for s in specs)
    assert 0 < faces < len(specs)


@PROPERTY
@given(SEEDS)
def test_a_contact_force_pushes_only_below_the_ground_and_grows_with_depth(seed):
    spec, outputs, named = build("penalty contact", seed)
    height = next(named[h] for h in named if h != "vel")
    f = run(spec, {height: GRID, named["vel"]: [0.0] * N})[outputs[0]]
    touching = [k for k, v in enumerate(f) if v != 0.0]
    assert touching == list(range(touching[-1] + 1))  # in contact below one height, free above
    assert all(x > y >= 0.0 for x, y in zip(f, f[1:touching[-1] + 2]))  # deeper: stronger
    assert continuous(f, 200.0)
    damped = run(spec, {height: GRID, named["vel"]: [1.0] * N})[outputs[0]]
    assert all(d < v for d, v in zip(damped, f) if v > 0.0)  # moving out of the ground: damped


@PROPERTY
@given(SEEDS)
def test_reflecting_walls_keep_the_position_inside_and_reverse_the_velocity_on_a_hit(seed):
    spec, outputs, named = build("reflecting walls", seed, n=N * 3)
    pos = next(named[h] for h in named if h != "vel")
    p = GRID * 3
    v = [-2.0] * N + [0.0] * N + [2.0] * N
    out = run(spec, {pos: p, named["vel"]: v})
    x_new, v_new = out[outputs[0]], out[outputs[1]]
    assert max(x_new) <= 1.75 and min(x_new) >= -1.75
    assert all(vn == vv for vn, vv in zip(v_new[N:2 * N], v[N:2 * N]))  # at rest: no step, no hit
    hits = [k for k in range(3 * N) if v_new[k] != v[k]]
    assert hits and all(v_new[k] * v[k] < 0.0 and abs(v_new[k]) <= abs(v[k]) for k in hits)
    assert len(hits) < 2 * N  # most particles move freely


@PROPERTY
@given(SEEDS)
def test_friction_opposes_the_motion_with_a_constant_magnitude_while_sliding(seed):
    spec, outputs, named = build("stick-slip friction", seed)
    (vel,) = named.values()
    f = run(spec, {vel: GRID})[outputs[0]]
    assert mirrored(f, -1.0) and all(v * x <= 0.0 for v, x in zip(f, GRID)) and f[N // 2] == 0.0
    assert len({round(abs(v), 12) for v in f[:8] + f[-8:]}) == 1  # Coulomb: |f| = mu, whatever the speed


def test_every_form_has_a_test():
    tested = {"saturating ramp", "dead zone", "Huber loss", "activation", "quantisation into levels", "spline weight",
              "soft clipping knee", "window mask", "quadrant label", "upwind difference", "minmod slope",
              "penalty contact", "reflecting walls", "stick-slip friction"}
    assert set(PIECEWISE_FORMS) == tested


@pytest.mark.parametrize("seed", range(40))
def test_conditions_test_exact_values_only(seed):
    """Every condition compares values on a power-of-two grid (inputs, their magnitudes and differences,
    thresholds on a 0.25 grid), so float32 and float64 take the same branch."""
    import ast

    from synthesis.categories import generate

    tree = ast.parse(generate("multi_conditional", seed).source)
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            for c in ast.walk(node.test):
                if isinstance(c, ast.Constant) and isinstance(c.value, float):
                    assert (c.value * 4).is_integer(), ast.unparse(node.test)
                if isinstance(c, ast.Call):
                    assert ast.unparse(c.func) in ("wp.abs", "abs"), ast.unparse(node.test)  # one spelling per module


def test_an_advected_field_is_stored_never_added_to_or_blended_with_the_old_output():
    """An upwind step's result is the field's new state: its output holds it (role output, `advected[i] =
    value`), where the writer's output updates (`+=`, a blend with the old element) would add it to what the
    array held before (session 48 found `advected[tid] = wp.lerp(advected[tid], advected_val, mix_rate)`)."""
    import re

    from synthesis.categories import generate

    seen = 0
    for seed in range(600):
        spec = generate("multi_conditional", seed)
        if "upwind difference" not in spec.description:
            continue
        seen += 1
        out = next(a for a in spec.args if re.fullmatch(r"advected\d*", a.name))
        assert out.role == "output", spec.source
        assert not re.search(rf"{out.name}\[[^\]]*\] \+=|(wp\.lerp\(|\* ){out.name}\[", spec.source), spec.source
    assert seen >= 10
