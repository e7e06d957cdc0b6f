"""Each piecewise form of multi_conditional computes what its name says.

A form is built into a kernel of its own over a test quantity `a` (an input in [-2, 2]), and the
kernel's Python body is run over inputs the test chooses. The checks are properties of the function
(continuity, symmetry, limits, which side a difference is taken on), never the generator's text.
"""
from __future__ import annotations

import math
import random
import re
from collections import Counter

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
    outputs = [r.into or w.add_array(r.hint, r.value.type, "output") for r in results]
    for name, r in zip(outputs, results):
        w.store(name, r.value)
    return w.finish("test"), outputs, dict(draw.named)


def run(spec, inputs: dict[str, list[float]]) -> dict[str, list]:
    """The kernel's body as Python, thread by thread, over `inputs` (every other input zero); the
    outputs and the arrays it updates (inout) after it."""
    wp = _Warp()
    names = {"wp": wp, "float": float, "int": int, "min": min, "max": max, "abs": abs}
    exec(compile(_runnable_source(spec), spec.name, "exec"), names)
    n = spec.dim[0]
    outputs = {a.name: [None] * n if a.role == "output" else Shaped(inputs.get(a.name, [0] * n))
               for a in spec.args if a.role in ("output", "inout")}
    args = [a.value if a.role == "scalar" else outputs[a.name] if a.name in outputs else Shaped(inputs.get(a.name, [0.0] * n))
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


def rescaled_band(f: list[float]) -> tuple[float, float, float]:
    """(l, u, gain): f(a) = gain * (a - u) above the band, gain * (a - l) below it, one gain for both."""
    outside = [(a, v) for a, v in zip(GRID, f) if v != 0.0]
    upper = min(a for a, v in outside if v > 0.0) - GRID[1] + GRID[0]
    lower = max(a for a, v in outside if v < 0.0) + GRID[1] - GRID[0]
    (a1, v1), (a2, v2) = outside[-2:]
    gain = (v2 - v1) / (a2 - a1)
    # the band's edges lie on the 0.25 grid: where f would reach zero, from the outermost values
    upper, lower = round((a2 - v2 / gain) * 4) / 4, round((GRID[0] - f[0] / gain) * 4) / 4
    assert all(math.isclose(v, gain * (a - upper if a > upper else a - lower if a < lower else 0.0), abs_tol=1e-6)
               for a, v in zip(GRID, f))
    return lower, upper, gain


@PROPERTY
@given(SEEDS)
def test_a_dead_zone_is_zero_inside_the_band_and_the_excess_beyond_it(seed):
    spec, outputs, _ = build("dead zone", seed)
    f = run(spec, {"a": GRID, "b": [0.0] * N})[outputs[0]]
    assert f[N // 2] == 0.0
    if "rescaled past the band" in spec.description:  # a stick's: what is past the band spans the range again
        lower, upper, gain = rescaled_band(f)
        assert lower == -upper and math.isclose(gain * (2.0 - upper), 1.0) and max(f) == 1.0 and min(f) == -1.0
        return
    assert continuous(f, 1.0)
    lower, upper = band_edges(f)
    assert lower < 0.0 < upper
    assert all(v == (a - upper if a > upper else a - lower if a < lower else 0.0) for a, v in zip(GRID, f))


def test_a_dead_zone_tested_by_magnitude_takes_the_edge_off_toward_zero():
    """`if wp.abs(x) > t: y = x - wp.sign(x) * t`: the same soft threshold as the two-branch form."""
    seeds = [s for s in range(200) if "one test of the magnitude" in build("dead zone", s)[0].description][:5]
    assert len(seeds) == 5
    for seed in seeds:
        spec, outputs, _ = build("dead zone", seed)
        assert "wp.sign(" in spec.source and " elif " not in spec.source
        f = run(spec, {"a": GRID, "b": [0.0] * N})[outputs[0]]
        lower, upper = band_edges(f)
        assert lower == -upper and upper > 0.0
        assert all(math.isclose(v, a - upper if a > upper else a + upper if a < -upper else 0.0, abs_tol=1e-12)
                   for a, v in zip(GRID, f))


def test_some_dead_zones_have_a_band_of_their_own_below_zero():
    built = [build("dead zone", seed)[0] for seed in range(40)]
    edges = [band_edges(over_a("dead zone", spec.seed)) for spec in built if "rescaled" not in spec.description]
    assert len(edges) < len(built)  # and some rescaled (test_a_dead_zone_is_zero_inside_the_band_...)
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


def value_and_derivative(form: str, seed: int):
    """f(a) over GRID and the derivative the form stores beside it; None where it stores none."""
    spec, outputs, _ = build(form, seed)
    if len(outputs) == 1:
        return None
    out = run(spec, {"a": GRID, "b": [0.0] * N})
    return out[outputs[0]], out[outputs[1]]


@PROPERTY
@given(SEEDS)
def test_a_huber_gradient_is_the_derivative_of_its_loss(seed):
    drawn = value_and_derivative("Huber loss", seed)
    if drawn is None:
        return
    loss, grad = drawn
    step = GRID[1] - GRID[0]
    for k in range(1, N - 1):  # the central difference of a piecewise quadratic is exact off its joints
        if grad[k + 1] - grad[k] == grad[k] - grad[k - 1]:  # the three points on one piece
            assert math.isclose((loss[k + 1] - loss[k - 1]) / (2 * step), grad[k], abs_tol=1e-9)
    assert min(grad) < 0.0 < max(grad) and max(grad) == -min(grad) < 2.0  # clipped to [-delta, delta]


def test_some_huber_losses_store_their_gradient():
    counts = [len(build("Huber loss", seed)[1]) for seed in range(40)]
    assert set(counts) == {1, 2}


@PROPERTY
@given(SEEDS)
def test_an_activation_derivative_is_the_slope_of_the_activation(seed):
    drawn = value_and_derivative("activation", seed)
    if drawn is None:
        return
    act, slope = drawn
    step = GRID[1] - GRID[0]
    assert all(s == 1.0 for a, s in zip(GRID, slope) if a > 0.0)
    for k in range(1, N // 2 - 1):  # below zero: the central difference, to the curvature's error
        assert math.isclose((act[k + 1] - act[k - 1]) / (2 * step), slope[k], rel_tol=1e-3, abs_tol=1e-6)


@PROPERTY
@given(SEEDS)
def test_a_spline_weight_derivative_is_the_slope_of_the_weight(seed):
    spec, outputs, _ = build("spline weight", seed)
    if len(outputs) == 1:
        return
    grid = [-4.0 + k / 64 for k in range(8 * 64 + 1)]
    out = run(_resized(spec, len(grid)), {"a": grid})
    weight, slope = out[outputs[0]], out[outputs[1]]
    # the weight is of a distance |a - c| * scale: its slope in a is the derivative times +-scale
    for k in range(1, len(grid) - 1):
        numeric = (weight[k + 1] - weight[k - 1]) / (2 / 64)
        if slope[k] != 0.0:  # a central difference of a cubic: off by (1/64)^2 / 6 times its third derivative
            assert any(math.isclose(abs(numeric), s * abs(slope[k]), rel_tol=0.02, abs_tol=2e-3) for s in (1.0, 2.0)), \
                (k, numeric, slope[k])
    assert min(slope) < 0.0 and max(slope) == 0.0  # the weight falls with the distance


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
    spec, outputs, _ = build("soft clipping knee", seed)
    f = run(spec, {"a": GRID, "b": [0.0] * N})[outputs[0]]
    assert continuous(f, 1.0) and all(x < y for x, y in zip(f, f[1:]))
    if "tanh" in spec.description:  # saturating: the identity inside, ever flatter and bounded beyond
        inside = [a for a, v in zip(GRID, f) if v == a]
        knee = inside[-1]
        assert inside[0] == -knee > -2.0 and mirrored(f, -1.0)
        rises = [y - x for a, x, y in zip(GRID, f, f[1:]) if a >= knee]
        assert all(r2 <= r1 for r1, r2 in zip(rises, rises[1:])) and max(f) < knee + 2.0
        return
    low, high, slope = knees(f)
    assert low < 0.0 < high and 0.0 < slope < 1.0


def test_some_soft_clips_have_knees_of_their_own_and_a_ratio_their_caller_sets():
    drawn = [(knees(over_a("soft clipping knee", seed)), build("soft clipping knee", seed)[0]) for seed in range(60)
             if "tanh" not in build("soft clipping knee", seed)[0].description]
    assert any(-low != high for (low, high, _), _ in drawn) and any(-low == high for (low, high, _), _ in drawn)
    ratios = [spec for _, spec in drawn if any(a.role == "scalar" and a.name in ("ratio", "gain_above", "slope_above")
                                              for a in spec.args)]
    assert ratios and len(ratios) < len(drawn)


@PROPERTY
@given(SEEDS)
def test_a_window_mask_keeps_the_value_on_one_interval_only_or_outside_it(seed):
    spec, outputs, _ = build("window mask", seed)
    f = run(spec, {"a": GRID, "b": [1.5] * N})[outputs[0]]
    assert set(f) == {0.0, 1.5}
    notch = "notch" in spec.description
    inside = [k for k, v in enumerate(f) if (v == 0.0 if notch else v == 1.5)]
    assert inside == list(range(inside[0], inside[-1] + 1)) and 0 < inside[0] and inside[-1] < N - 1


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
    if "fluxes through the faces" in spec.description:  # vel[k] on the face right of cell k
        def flux(k: int) -> float:  # through that face, the field taken from the cell upwind of it
            return vel[k] * (u[k] if vel[k] > 0 else neighbours(spec, u, k)[1])

        for k in range(n):
            before = neighbours(spec, list(range(n)), k)[0]  # the face left of k is the right face of this cell
            if before == k:
                continue  # the first cell of a clamped field: its left face takes its own value
            net = flux(k) - flux(before)
            if net != 0.0:
                dts.add(round((u[k] - out[k]) / net, 9))
            else:
                assert out[k] == u[k]
        assert len(dts) == 1 and 0.0 < dts.pop() <= 0.25
        return
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


def test_a_kernels_stencils_share_one_axis_and_its_faces_are_named_for_it():
    """An upwind difference along a row beside a slope limited down a column, its faces named left and
    right, is no scheme anyone writes (session 59 found `face_left` holding the value less half the
    slope between the elements above and below). Neighbours are loaded as `<field>_<word>`, the words
    naming the axis (KernelWriter.NEIGHBOUR_WORDS)."""
    from synthesis.categories import generate
    from synthesis.exprgen import KernelWriter

    checked = faces = 0
    for seed in range(3000):
        spec = generate("multi_conditional", seed)
        if len(spec.dim) < 2 or "limiter" not in spec.description or "both axes" in spec.description:
            continue
        pairs = KernelWriter.NEIGHBOUR_WORDS[len(spec.dim)]
        words = {m.group(1) for m in re.finditer(r"\b\w+?_(left|right|up|down|below|above)\b = ", spec.source)}
        axes = {axis for axis, pair in pairs.items() if words & set(pair)}
        assert len(axes) == 1, spec.source
        (axis,) = axes
        named = {a.name for a in spec.args if a.name.startswith("face_")}
        assert named <= {f"face_{word}" for word in pairs[axis]}, spec.source
        checked += "upwind difference" in spec.description
        faces += bool(named) and axis != len(spec.dim) - 1
    assert checked >= 5 and faces >= 5


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
def test_walls_keep_the_position_inside_and_reverse_stop_or_wrap_a_body_that_hits(seed):
    spec, outputs, named = build("reflecting walls", seed, n=N * 3)
    pos = next(named[h] for h in named if h != "vel")
    p = GRID * 3
    v = [-2.0] * N + [0.0] * N + [2.0] * N
    out = run(spec, {pos: p, named["vel"]: v})
    x_new = out[outputs[0]]
    assert max(x_new) <= 1.75 and min(x_new) >= -1.75
    if "wrapped round" in spec.description:  # a periodic box: the step, less or plus its width on a crossing
        assert len(outputs) == (2 if "gravity" in spec.description else 1)  # under gravity, the kicked velocity too
        shifts = set()
        for group in (range(0, N), range(N, 2 * N), range(2 * N, 3 * N)):  # one velocity each: one free step
            (step, _), = Counter(round(x_new[k] - p[k], 9) for k in group).most_common(1)
            shifts |= {round(x_new[k] - p[k] - step, 9) for k in group} - {0.0}
        assert shifts and len({abs(m) for m in shifts}) == 1 and min(abs(m) for m in shifts) >= 2.0  # one width, either way
        return
    v_new = out[outputs[1]]
    if "gravity" in spec.description:  # the velocity kicked by one constant first, hit or not
        # of the bodies at rest, those in free flight (one step, the commonest; a wall moves the others)
        (step, _), = Counter(round(x_new[k] - p[k], 9) for k in range(N, 2 * N)).most_common(1)
        kicks = {round(v_new[k] - v[k], 9) for k in range(N, 2 * N) if round(x_new[k] - p[k], 9) == step}
        assert len(kicks) == 1 and kicks.pop() < 0.0 and step < 0.0
        return
    assert all(vn == vv for vn, vv in zip(v_new[N:2 * N], v[N:2 * N]))  # at rest: no step, no hit
    hits = [k for k in range(3 * N) if v_new[k] != v[k]]
    assert hits and len(hits) < 2 * N  # most particles move freely
    if "stop the body" in spec.description:
        assert all(v_new[k] == 0.0 and x_new[k] in (min(x_new), max(x_new)) for k in hits)
    else:
        assert all(v_new[k] * v[k] < 0.0 and abs(v_new[k]) <= abs(v[k]) for k in hits)


def test_a_stepped_position_is_stored_under_its_inputs_name():
    """`px` steps to `px_out` and `x` to `x_out`, as a person names a state after the array it updates;
    `pos_out` beside `px` was a name from another kernel (8% of multi-conditional kernels, session 60)."""
    stems = set()
    for seed in range(40):
        spec, outputs, named = build("reflecting walls", seed)
        pos = next(named[h] for h in named if h != "vel")
        assert outputs[0] == f"{pos}_out", spec.source
        stems.add(pos)
    assert stems == {"pos", "x", "px"}


def test_walls_come_as_mirrors_stops_and_wraps_some_under_gravity():
    kinds = [build("reflecting walls", seed)[0].description for seed in range(60)]
    for kind in ("reflecting walls", "stop the body", "wrapped round", "gravity"):
        assert any(kind in d for d in kinds), kind


@PROPERTY
@given(SEEDS)
def test_friction_opposes_the_motion_with_a_constant_magnitude_while_sliding(seed):
    spec, outputs, named = build("stick-slip friction", seed)
    vel, loads = named["vel"], {h: [2.0] * N for h in named.values()}  # a normal force of 2 where one is read
    loads[vel] = GRID
    f = run(spec, loads)[outputs[0]]
    assert mirrored(f, -1.0) and all(v * x <= 0.0 for v, x in zip(f, GRID)) and f[N // 2] == 0.0
    assert len({round(abs(v), 12) for v in f[:8] + f[-8:]}) == 1  # Coulomb: |f| = mu, whatever the speed
    if "regularised" in spec.description:  # below the stick speed, a ramp to zero that meets Coulomb's value
        assert continuous(f, 64.0)
    if "normal force" in spec.description:  # Coulomb's bound scales with the normal force
        loads[next(h for h in named.values() if h != vel)] = [4.0] * N
        assert all(math.isclose(g, 2 * v) for g, v in zip(run(spec, loads)[outputs[0]], f))


@PROPERTY
@given(SEEDS)
def test_a_hysteresis_switch_turns_on_above_off_below_and_keeps_its_state_between(seed):
    spec, (state, *driven), _ = build("hysteresis", seed)
    was_on = run(spec, {"a": GRID, state: [1] * N})[state]
    was_off = run(spec, {"a": GRID, state: [0] * N})[state]
    kept = [k for k in range(N) if was_on[k] == 1 and was_off[k] == 0]  # between the thresholds: as it was
    assert kept == list(range(kept[0], kept[-1] + 1)) and 0 < kept[0] and kept[-1] < N - 1
    assert all(was_on[k] == was_off[k] == 0 for k in range(kept[0]))  # below: off, whatever it was
    assert all(was_on[k] == was_off[k] == 1 for k in range(kept[-1] + 1, N))  # above: on
    if driven:  # what it switches: a level where the switch is on, nothing where it is off
        drive = run(spec, {"a": GRID, state: [1] * N})[driven[0]]
        assert {d > 0.0 for d, s in zip(drive, was_on) if s} == {True} and {d for d, s in zip(drive, was_on) if not s} == {0.0}


def test_every_form_has_a_test():
    tested = {"saturating ramp", "dead zone", "Huber loss", "activation", "quantisation into levels", "spline weight",
              "soft clipping knee", "window mask", "quadrant label", "upwind difference", "minmod slope",
              "penalty contact", "reflecting walls", "stick-slip friction", "hysteresis"}
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


def _forms_drawn(seeds, monkeypatch) -> list[tuple[object, list[str]]]:
    """(spec, the forms built into it in order) for multi_conditional's kernels of `seeds`."""
    from synthesis.categories import generate
    from synthesis.categories import multi_conditional

    held: list[str] = []
    build_one = multi_conditional._build

    def recording(draw, form):
        built = build_one(draw, form)
        if built:
            held.append(form)
        return built

    draw_one = multi_conditional.draw_kernel

    def fresh(*args):  # a kernel redrawn (sampled_run) records its last draw's forms only
        held.clear()
        return draw_one(*args)

    monkeypatch.setattr(multi_conditional, "_build", recording)
    monkeypatch.setattr(multi_conditional, "draw_kernel", fresh)
    return [(generate("multi_conditional", seed), list(held)) for seed in seeds]


def test_a_kernel_of_several_forms_is_one_chain_of_forms_that_follow_each_other(monkeypatch):
    """Session 55: a dead zone beside a quadrant label of other inputs and an ELU of a third was three
    kernels in one. Forms now share a kernel only as a chain (FOLLOWERS): each one a form the one before
    it feeds or works beside (one body, one field)."""
    from synthesis.categories.multi_conditional import FOLLOWERS

    drawn = _forms_drawn(range(300), monkeypatch)
    chains = 0
    for spec, forms in drawn:
        for before, after in zip(forms, forms[1:]):
            if after in FOLLOWERS.get(before, ()):
                continue
            raise AssertionError(f"{before} then {after}:\n{spec.source}")
        chains += len(forms) > 1
    assert 0.4 * len(drawn) < chains < 0.8 * len(drawn)


def test_a_fed_form_tests_the_value_the_form_before_it_computed():
    """In a chain that feeds (a dead zone's excess soft-clipped or taken as a loss, a masked residual's
    loss), the later form's condition reads a variable the earlier form's branches assigned."""
    import ast

    from synthesis.categories import generate

    fed = 0
    for seed in range(400):
        spec = generate("multi_conditional", seed)
        d = spec.description
        if not ("dead zone" in d and ("soft clipping knee" in d or "Huber loss" in d)
                or "window mask" in d and "Huber loss" in d):
            continue
        fed += 1
        fn = next(n for n in ast.parse(spec.source).body if isinstance(n, ast.FunctionDef))
        ifs = [n for n in ast.walk(fn) if isinstance(n, ast.If)]
        branch_assigned = {t.id for n in ifs for s in n.body + n.orelse if isinstance(s, ast.Assign)
                           for t in s.targets if isinstance(t, ast.Name)}
        # the magnitude the Huber loss tests is assigned from the earlier result: follow one assignment
        derived = {s.targets[0].id for s in ast.walk(fn) if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name)
                   and {n.id for n in ast.walk(s.value) if isinstance(n, ast.Name)} & branch_assigned}
        tested = {n.id for i in ifs for n in ast.walk(i.test) if isinstance(n, ast.Name)}
        assert tested & (branch_assigned | derived), spec.source
    assert fed >= 20


def test_a_radial_dead_zone_keeps_the_direction_and_rescales_the_rest_of_the_disc():
    """Inside the radius nothing; between it and the rim the direction times the response to the rescaled
    radius ((|s| - r) / (1 - r), linear, squared or cubed); past the rim the unit direction where the
    kernel saturates, else the same curve continued (session 57)."""
    import numpy as np

    from synthesis.categories import generate
    from tests.synthesis.python_run import draw_inputs, run

    checked = 0
    for seed in range(300):
        spec = generate("multi_conditional", seed)
        if "radial dead zone" not in spec.description or "early return" in spec.description:
            continue  # (threads past a padded launch's count write nothing)
        inputs = draw_inputs(spec, seed)
        stick = next((v for k, v in inputs.items() if v.shape[-1:] == (2,)), None)
        if stick is None:  # two axis arrays
            pair = next(p for p in (("axis_x", "axis_y"), ("stick_x", "stick_y"), ("lx", "ly")) if p[0] in inputs)
            stick = np.stack([inputs[pair[0]], inputs[pair[1]]], -1)
        got = next(v for k, v in run(spec, inputs).items() if v.shape[-1:] == (2,))
        power = 3 if "cubic" in spec.description else 2 if "quadratic" in spec.description else 1
        mag = np.sqrt((stick * stick).sum(-1))
        ok = False
        for r in (0.125, 0.25, 0.375):  # the radius drawn, whether a literal, a parameter or a constant
            t = np.clip((mag - r) / (1.0 - r), 0.0, None) ** power
            want = np.where((mag > r)[..., None], stick / np.where(mag > 0, mag, 1.0)[..., None] * t[..., None], 0.0)
            if "saturated" in spec.description:
                want = np.where((mag > 1.0)[..., None], stick / np.where(mag > 0, mag, 1.0)[..., None], want)
            ok = ok or np.allclose(got, want, atol=1e-6)
        assert ok, spec.source
        checked += 1
    assert checked >= 10
