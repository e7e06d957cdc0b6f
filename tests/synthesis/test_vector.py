"""Each computation of the vector category computes what its name says.

A form is built into a kernel of its own and run in Python, thread by thread, over inputs drawn on the
arrays' grids. Its results are checked against the geometry the name promises, computed here with
numpy: a bounce keeps the tangential velocity and reverses the approaching normal part by one
restitution coefficient; a tangent frame is orthonormal; a capsule's distance is the least distance
to points of its segment; and so on.
"""
from __future__ import annotations

import math
import random
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synthesis.categories import vector
from synthesis.categories.rich import RichKernelWriter
from synthesis.categories.site import Site
from synthesis.categories.vector import VECTOR_FORMS
from tests.synthesis.forms import ROWS, build, joined, elements, named, scalar, value
from tests.synthesis.python_run import draw_inputs, run
from tests.synthesis.shares import assert_others_keep_their_draws

SEEDS = st.integers(0, 2**32 - 1)
PROPERTY = settings(max_examples=10, deadline=None, derandomize=True)


def form(name: str, seed: int, **kwargs):
    spec = build(vector, VECTOR_FORMS, name, seed, **kwargs)
    inputs = draw_inputs(spec, seed)
    got = run(spec, inputs)
    return spec, joined(spec, inputs), joined(spec, got)


def unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


@PROPERTY
@given(SEEDS)
def test_a_bounce_keeps_the_tangential_velocity_and_reverses_the_approach_by_one_restitution(seed):
    spec, inputs, got = form("bounce", seed)
    v_name = named(spec, "vel", "velocities", "v_in", "particle_v")
    n_name = named(spec, "normals", "surface_n", "contact_normal")
    written = {a.name for a in spec.args if a.role in ("output", "inout")}
    out = got[v_name if v_name in written else named(spec, "vel_out", "reflected", "v_after")]  # in place, or not
    factors = set()
    for e in elements(spec, inputs):
        v, n, r = inputs[v_name][e], unit(inputs[n_name][e]), out[e]
        np.testing.assert_allclose(r - np.dot(r, n) * n, v - np.dot(v, n) * n, atol=1e-9)
        if np.dot(v, n) >= 0.0:
            np.testing.assert_allclose(r, v, atol=1e-12)  # receding: untouched
        elif np.dot(v, n) < -1e-3:
            factors.add(round(-np.dot(r, n) / np.dot(v, n), 6))
    if "coefficient per element" in spec.description:  # each element's own restitution, in the choices' range
        assert all(0.25 <= f <= 0.75 for f in factors), factors
        return
    allowed = {1.0} if "mirror reflection" in spec.description else {0.25, 0.5, 0.75}
    assert len(factors) <= 1 and factors <= allowed, factors


@PROPERTY
@given(SEEDS)
def test_the_normal_and_tangential_parts_add_up_and_friction_damps_the_tangential_one(seed):
    spec, inputs, got = form("normal and tangential parts", seed, literal_knobs=False)
    v_name, n_name = named(spec, "vel", "v_rel", "forces"), named(spec, "normals", "surface_n", "axis_dirs")
    mus = set()
    for e in elements(spec, inputs):
        v, n = inputs[v_name][e], unit(inputs[n_name][e])
        vn, vt = np.dot(v, n) * n, v - np.dot(v, n) * n
        if "friction" in spec.description:
            r = got[named(spec, "vel_out", "v_after", "response")][e]
            np.testing.assert_allclose(np.dot(r, n) * n, -vn, atol=1e-9)
            if np.linalg.norm(vt) > 1e-3:
                mus.add(round(1.0 - np.linalg.norm(r + vn) / np.linalg.norm(vt), 6))
        elif "tangential component" in spec.description:
            np.testing.assert_allclose(got[named(spec, "v_tangent", "tangential", "slide")][e], vt, atol=1e-9)
        else:
            assert got[named(spec, "normal_speed", "v_normal")][e] == pytest.approx(np.linalg.norm(vn), abs=1e-9)
            assert got[named(spec, "tangent_speed", "v_slide")][e] == pytest.approx(np.linalg.norm(vt), abs=1e-9)
    assert len(mus) <= 1 and mus <= {0.125, 0.25, 0.5}


@PROPERTY
@given(SEEDS)
def test_shading_is_lambert_or_blinn_phong_of_the_normal_against_the_light(seed):
    spec, inputs, got = form("shading", seed, literal_knobs=False)
    n_name = named(spec, "normals", "surface_n", "n_world")
    albedo = inputs[named(spec, "albedo", "base_color", "diffuse")]
    out = got[named(spec, "color", "radiance", "shade")]
    ambient = scalar(spec, "ambient", "ka") or 0.0
    for e in elements(spec, inputs):
        n = unit(inputs[n_name][e])
        if "point light" in spec.description:
            to_l = value(spec, "light_pos", "lamp") - inputs[named(spec, "positions", "points", "p_world")][e]
            l, falloff = unit(to_l), 16.0 / np.dot(to_l, to_l)
        else:
            l, falloff = unit(value(spec, "light_dir", "sun", "to_light")), 1.0
        want = albedo[e] * (ambient + max(np.dot(n, l), 0.0) * falloff)
        if "Blinn-Phong" in spec.description:
            h = unit(l + unit(value(spec, "view_dir", "eye", "to_eye")))
            want = want + max(np.dot(n, h), 0.0) ** scalar(spec, "shininess", "spec_power")
        np.testing.assert_allclose(out[e], want, atol=1e-9)


@PROPERTY
@given(SEEDS)
def test_a_triangles_area_and_normal_come_from_the_cross_product_of_its_edges(seed):
    spec, inputs, got = form("triangle", seed)
    verts = inputs[named(spec, "verts", "points", "positions")]
    table = named(spec, "indices", "tri_indices", "faces", "tris")

    def corner_ids(t: int) -> list[int]:
        if table and inputs[table].ndim == 2:  # a row of three per triangle
            return [inputs[table][t, k] for k in range(3)]
        if table:
            return [inputs[table][3 * t + k] for k in range(3)]
        return [inputs[named(spec, f"i{k}", f"v{k}_idx", f"corner{k}")][t] for k in range(3)]

    areas = []
    for t in range(spec.dim[0]):
        corners = [verts[i] for i in corner_ids(t)]
        cross = np.cross(corners[1] - corners[0], corners[2] - corners[0])
        areas.append(0.5 * np.linalg.norm(cross))
        if named(spec, "tri_area", "areas"):
            assert got[named(spec, "tri_area", "areas")][t] == pytest.approx(areas[-1], abs=1e-9)
        if named(spec, "face_normals", "tri_normals", "normals_out") and np.linalg.norm(cross) > 1e-9:
            np.testing.assert_allclose(got[named(spec, "face_normals", "tri_normals", "normals_out")][t],
                                       unit(cross), atol=1e-9)
    if named(spec, "total_area", "surface_area"):
        assert got[named(spec, "total_area", "surface_area")][0] == pytest.approx(sum(areas), rel=1e-9)
    if named(spec, "vertex_normals", "normal_accum"):  # each face's cross product added to its corners
        want = np.zeros_like(verts)
        for t in range(spec.dim[0]):
            ids = corner_ids(t)
            for i in ids:
                want[i] += np.cross(verts[ids[1]] - verts[ids[0]], verts[ids[2]] - verts[ids[0]])
        np.testing.assert_allclose(got[named(spec, "vertex_normals", "normal_accum")], want, atol=1e-9)


@PROPERTY
@given(SEEDS)
def test_a_capsules_distance_is_the_least_distance_to_its_segment_less_the_radius(seed):
    spec, inputs, got = form("capsule distance", seed, literal_knobs=False)
    a, b = value(spec, "seg_a", "p0", "start"), value(spec, "seg_b", "p1", "end")
    samples = a + np.linspace(0.0, 1.0, 4001)[:, None] * (b - a)
    radius = scalar(spec, "radius", "r") or 0.0
    dist = got[named(spec, "sdf", "dist", "phi", "distance", "d_seg")]
    for e in elements(spec, inputs):
        p = inputs[named(spec, "points", "queries", "x")][e]
        least = np.min(np.linalg.norm(samples - p, axis=1))
        assert dist[e] == pytest.approx(least - radius, abs=2e-3)
        if named(spec, "nearest", "closest_pt"):
            assert np.linalg.norm(got[named(spec, "nearest", "closest_pt")][e] - p) == pytest.approx(least, abs=2e-3)
        if named(spec, "penalty", "contact_force"):
            k = scalar(spec, "stiffness", "k_contact")
            assert got[named(spec, "penalty", "contact_force")][e] == pytest.approx(k * max(radius - least, 0.0), abs=1.0)


def test_a_segments_ends_are_named_as_one_pair():
    """`seg_a` with `seg_b`, `p0` with `p1`, `start` with `end`: the two names were drawn apart, and 22 of
    the 35 vector kernels holding a segment (seeds 0-399) named its ends as two people would (`seg_a`
    beside `p1` or `end`)."""
    pairs = {("seg_a", "seg_b"), ("p0", "p1"), ("start", "end")}
    seen = set()
    for seed in range(120):
        spec = build(vector, VECTOR_FORMS, "capsule distance", seed)
        names = {a.name for a in spec.args}
        ends = {pair for pair in pairs if names & set(pair)}
        assert len(ends) == 1 and set(next(iter(ends))) <= names, sorted(names)
        seen |= ends
    assert seen == pairs


@PROPERTY
@given(SEEDS)
def test_the_angle_between_two_vectors_is_the_arccosine_of_their_normalised_dot_product(seed):
    spec, inputs, got = form("angle between", seed)
    out_name = named(spec, "angle", "theta", "angles", "angle_deg", "degrees_out")
    path = named(spec, "points", "path", "polyline")
    target = value(spec, "target", "goal", "look_at")
    for e in elements(spec, inputs):
        if path:  # the edges into and out of the vertex, the ends clamped (a zero edge)
            pts, i = inputs[path], e[0]
            a, b = pts[i] - pts[max(i - 1, 0)], pts[min(i + 1, len(pts) - 1)] - pts[i]
        elif target is not None:
            a = inputs[named(spec, "heading", "forward", "facing")][e]
            b = target - inputs[named(spec, "pos", "positions", "x")][e]
        else:
            a, b = inputs[named(spec, "a", "u", "dir_a")][e], inputs[named(spec, "b", "v", "dir_b")][e]
        axis = next((np.array(x.value) for x in spec.args if x.name in ("axis", "hinge_axis", "up")), None)
        if axis is not None:  # the angle of the projections onto the plane normal to the axis, signed about it
            a, b = a - np.dot(a, axis) * axis, b - np.dot(b, axis) * axis
        if min(np.linalg.norm(a), np.linalg.norm(b)) < 1e-6:
            continue
        want = math.acos(np.clip(np.dot(unit(a), unit(b)), -1.0, 1.0))
        if axis is not None and np.dot(np.cross(a, b), axis) < 0.0:
            want = -want
        if "signed angle" in spec.description and a[0] * b[1] - a[1] * b[0] < 0.0:
            want = -want
        if out_name in ("angle_deg", "degrees_out"):
            want = math.degrees(want)
        assert got[out_name][e] == pytest.approx(want, abs=1e-6)


@PROPERTY
@given(SEEDS)
def test_a_tangent_frame_is_orthonormal_and_follows_the_normal(seed):
    spec, inputs, got = form("orthonormal frame", seed)
    for e in elements(spec, inputs):
        n = unit(inputs[named(spec, "normals", "n_in", "up")][e])
        guide = inputs[named(spec, "tangents", "t_in", "guide")][e]
        sign = (-1.0 if guide[3] < 0.0 else 1.0) if len(guide) == 4 else 1.0
        t = unit(guide[:3] - np.dot(guide[:3], n) * n)
        b = np.cross(n, t) * sign
        if named(spec, "shading_normal", "n_out", "mapped_n"):
            m = inputs[named(spec, "normal_map", "n_tangent", "bump")][e]
            want = unit(t * m[0] + b * m[1] + n * m[2])
            np.testing.assert_allclose(got[named(spec, "shading_normal", "n_out", "mapped_n")][e], want, atol=1e-9)
        elif named(spec, "frames", "tbn", "basis"):
            frame = np.array([t, b, n])
            want = frame.T if "columns" in spec.description else frame
            np.testing.assert_allclose(got[named(spec, "frames", "tbn", "basis")][e], want, atol=1e-9)
        else:
            np.testing.assert_allclose(got[named(spec, "tangent_out", "t_out")][e], t, atol=1e-9)
            np.testing.assert_allclose(got[named(spec, "bitangent", "b_out")][e], b, atol=1e-9)


@PROPERTY
@given(SEEDS)
def test_a_limited_vector_keeps_its_direction_and_its_length_stays_within_the_limits(seed):
    spec, inputs, got = form("limit length", seed, literal_knobs=False)
    top, low = scalar(spec, "max_speed", "v_max", "max_len"), scalar(spec, "min_speed", "v_min")
    for e in elements(spec, inputs):
        v = inputs[named(spec, "vel", "forces", "steps")][e]
        r = got[named(spec, "vel_out", "limited", "clamped")][e]
        length = np.linalg.norm(v)
        want = min(length, top) if low is None else min(max(length, low), top)
        assert np.linalg.norm(r) == pytest.approx(want, abs=1e-9)
        np.testing.assert_allclose(r * length, v * np.linalg.norm(r), atol=1e-9)  # the same direction


@PROPERTY
@given(SEEDS)
def test_colours_are_composited_by_their_blend_mode_and_the_luminance_uses_rec709(seed):
    spec, inputs, got = form("composite", seed)
    src_name = named(spec, "src_rgba", "layer", "fg")
    canvas = named(spec, "canvas", "framebuffer", "accum")
    dst_name = canvas or named(spec, "dst_rgba", "background", "bg")
    out = got[canvas or named(spec, "composite", "rgba_out", "blended")]
    for e in elements(spec, inputs):
        s, d = inputs[src_name][e], inputs[dst_name][e]
        if "alpha compositing" in spec.description:
            if "premultiplied" in spec.description:
                s = np.array([s[0] * s[3], s[1] * s[3], s[2] * s[3], s[3]])
            want = s + d * (1.0 - s[3])
        elif "multiply" in spec.description:
            want = s * d
        elif "screen" in spec.description:
            want = 1.0 - (1.0 - s) * (1.0 - d)
        else:
            t = inputs[named(spec, "mix", "weight", "coverage")][e]
            want = d * (1.0 - t) + s * t
        np.testing.assert_allclose(out[e], want, atol=1e-9)
        if named(spec, "luminance", "gray"):
            luma = got[named(spec, "luminance", "gray")][e]
            assert luma == pytest.approx(np.dot(want[:3], [0.2126, 0.7152, 0.0722]), abs=1e-9)


def _box(spec, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The walls of a box walls kernel: by-value vectors, a cube's half extent, or a pair of scalars."""
    vectors = {a.name for a in spec.args if a.role == "scalar" and a.dtype.startswith("vec")}
    lo, hi = (value(spec, *(h for h in hints if h in vectors)) for hints in
              (("box_min", "lower", "domain_lo"), ("box_max", "upper", "domain_hi")))
    if lo is not None:
        return lo, hi
    half = scalar(spec, "half_extent", "box_half", "extent")
    if half is not None:
        return np.full(n, -half), np.full(n, half)
    lo, hi = scalar(spec, "x_min", "lo", "lower", "wall_lo"), scalar(spec, "x_max", "hi", "upper", "wall_hi")
    return np.full(n, lo), np.full(n, hi)


@PROPERTY
@given(SEEDS)
def test_box_walls_put_a_particle_back_inside_and_reverse_only_the_velocity_components_that_hit(seed):
    spec, inputs, got = form("box walls", seed, literal_knobs=False)
    written = {a.name for a in spec.args if a.role in ("output", "inout")}
    x_name, v_name = named(spec, "pos", "x", "positions"), named(spec, "vel", "v", "velocities")
    x_out = got[x_name if x_name in written else named(spec, "pos_out", "x_new", "positions_out")]
    n = x_out.shape[-1]
    if "periodic" in spec.description:
        size = scalar(spec, "box_size", "L", "period")
        for e in elements(spec, inputs):
            p, r = inputs[x_name][e], x_out[e]
            assert np.all((0.0 <= r) & (r < size)), (p, r)
            np.testing.assert_allclose((r - p) / size, np.round((r - p) / size), atol=1e-12)  # whole periods
        return
    v_out = got[v_name if v_name in written else named(spec, "vel_out", "v_new", "velocities_out")]
    e_coef = scalar(spec, "restitution", "e")
    for e in elements(spec, inputs):
        p, v, rp, rv = inputs[x_name][e], inputs[v_name][e], x_out[e], v_out[e]
        if "ground plane" in spec.description:
            up = 2 if "ground_z" in {a.name for a in spec.args} or re.search(r"\[2\] <|\.z <", spec.source) else 1
            floor = scalar(spec, "ground", "floor_height", "ground_y", "ground_z")
            keep = 1.0 - scalar(spec, "friction", "mu")
            lo, hi = np.full(n, -np.inf), np.full(n, np.inf)
            lo[up] = floor
            if p[up] >= floor:
                np.testing.assert_array_equal(rv, v)
            else:
                want = v * keep
                want[up] = -v[up] * e_coef if v[up] < 0.0 else v[up]
                np.testing.assert_allclose(rv, want, rtol=1e-12)
        else:
            lo, hi = _box(spec, n)
            hit = (p < lo) | (p > hi)
            np.testing.assert_array_equal(rv[~hit], v[~hit])  # components inside the box untouched
            inward = np.where(p[hit] < lo[hit], 1.0, -1.0)  # the direction back into the box
            # reversed (`v[k] *= -e`), or made to point inward whatever its sign (`wp.abs(v[k]) * e`)
            want = inward * np.abs(v[hit]) * e_coef if "wp.abs" in spec.source else -v[hit] * e_coef
            np.testing.assert_allclose(rv[hit], want, rtol=1e-12)
        np.testing.assert_array_equal(rp, np.clip(p, lo, hi))


def interpolation(seed: int):
    """An attribute-interpolation kernel (`vector.interpolate_attributes`) of its own, run in Python."""
    rng = random.Random(seed)
    w = RichKernelWriter(rng, "k_0a1b2c3d4e", "vector", seed, (ROWS,))
    w.output_update_share = 0.0  # the form's values as its formula gives them, not updated in place
    vector.interpolate_attributes(Site(w, "own"))
    spec = w.finish("test")
    inputs = draw_inputs(spec, seed)
    return spec, joined(spec, inputs), joined(spec, run(spec, inputs))


@PROPERTY
@given(SEEDS)
def test_vertex_attributes_are_the_barycentric_combination_of_the_triangles_corners(seed):
    spec, inputs, got = interpolation(seed)
    faces = inputs[named(spec, "sample_tri", "face_ids", "tri_ids")]
    table = inputs[named(spec, "indices", "tri_indices", "tris", "faces")]
    stored = named(spec, "bary", "barycentrics", "sample_bary")
    for hints, dtype, _, _, out_hints in vector.VERTEX_ATTRIBUTES:
        attr = named(spec, *hints)
        if attr is None:
            continue
        out = got[named(spec, *out_hints)]
        for t in range(ROWS):
            f = faces[t]
            corners = table[f] if table.ndim == 2 else table[3 * f:3 * f + 3]
            if stored:
                weights = inputs[stored][t]
            else:
                u, v = inputs[named(spec, "sample_uv", "uv_coords", "local_uv")][t]
                weights = (1.0 - u - v, u, v)
            want = sum(wk * inputs[attr][c] for wk, c in zip(weights, corners))
            if hints[0] == "normals":
                want = unit(want)
            np.testing.assert_allclose(out[t], want, atol=1e-9)


@PROPERTY
@given(SEEDS)
def test_one_generic_helper_interpolates_attributes_of_at_least_two_types(seed):
    spec, _, _ = interpolation(seed)
    assert spec.source.startswith("from typing import Any\n")
    helpers = re.findall(r"@wp\.func\ndef (\w+)\((.*)\):", spec.source)
    assert len(helpers) == 1 and ("Any" in helpers[0][1])
    calls = re.findall(rf"{helpers[0][0]}\((\w+)", spec.source.split("@wp.kernel")[1])  # each call's first array
    types = {next(a.dtype for a in spec.args if a.name == c.split("[")[0]) for c in calls}
    assert len(types) >= 2, types


def test_other_vector_kernels_keep_their_draws_beside_interpolations(monkeypatch):
    assert_others_keep_their_draws(monkeypatch, "vector", vector, "chooses_interpolation")
