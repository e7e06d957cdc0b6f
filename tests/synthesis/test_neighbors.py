"""The neighbors category: hash-grid queries that mean what they say.

A hash grid only speeds a query up: a kernel must compute the same values with a grid of one cell,
where every query visits every particle (the query end is clamped to one cell when the range spans
the grid). Run in Warp on the CPU, each form is checked against that brute-force run.
"""
from __future__ import annotations

import ast
import dataclasses
import functools

import numpy as np
import pytest

from cuda_production.reference import input_seed, make_input, warp_reference
from synthesis.categories import generate, neighbors
from synthesis.spec import KernelSpec

SEEDS = range(0, 44)


def _specs() -> list[KernelSpec]:
    return [generate("neighbors", seed) for seed in SEEDS]


def _one_cell(spec: KernelSpec) -> KernelSpec:
    """The kernel with a structure whose every query finds every particle: a hash grid of one cell, or
    a BVH whose boxes span the whole domain (half width 1000)."""
    def whole(a):
        if a.role == "hash_grid":
            return dataclasses.replace(a, shape=(1, 1, 1))
        return dataclasses.replace(a, value=1000.0) if a.role == "bvh" else a
    return dataclasses.replace(spec, args=tuple(whole(a) for a in spec.args))


def _outputs(spec: KernelSpec, data: bytes) -> list[np.ndarray]:
    arrays, offset = [], 0
    for a in spec.args:
        if a.is_written:
            n = a.count * a.width
            arrays.append(np.frombuffer(data, dtype=a.numpy_dtype, count=n, offset=offset).reshape(a.shape[0], -1))
            offset += n * a.component_bytes
    return arrays


@pytest.fixture(scope="module")
def runs() -> list[tuple[KernelSpec, bytes, bytes]]:
    specs = _specs()
    gridded = warp_reference(specs, "nbr_gridded")
    brute = warp_reference([_one_cell(s) for s in specs], "nbr_brute")
    return [(s, gridded[s.name], brute[s.name]) for s in specs]


def test_every_form_is_drawn():
    drawn = {generate("neighbors", seed).description.split(" (")[0].split(":")[0] for seed in range(120)}
    assert len(drawn) >= len(neighbors.FORMS) - 1  # flocking's two summaries share a prefix


def test_grid_names_an_input_vec3_array_and_the_query_radius_fits_a_cell():
    structures = set()
    for spec in _specs():
        grid = next(a for a in spec.args if a.role in ("hash_grid", "bvh"))
        structures.add(grid.role)
        points = next(a for a in spec.args if a.name == grid.points)
        assert points.role == "input" and points.dtype == "vec3"
        if "wp.bvh_query_ray" in spec.source:  # a thread per ray; the particles, a scene that never grows with it
            assert points.shape[0] % spec.dim[0] != 0 and grid.value in neighbors.RADII
        else:
            assert points.shape == spec.dim
        assert grid.flattened() == () and f"{grid.name}: wp.uint64" in spec.source
        if grid.role == "hash_grid":
            assert len(grid.shape) == 3 and grid.value > 0
        else:  # zero-size boxes at the particles, or boxes as wide as the query radius
            assert grid.shape == () and (grid.value == 0.0 or grid.value in neighbors.RADII)
            assert ("wp.bvh_query_aabb(" in spec.source or "wp.bvh_query_ray(" in spec.source) \
                and "wp.hash_grid" not in spec.source
    assert structures == {"hash_grid", "bvh"}


def test_results_equal_a_one_cell_grid(runs):
    """Every particle within reach is found through the grid or the BVH: the same values as visiting all."""
    for spec, gridded, brute in runs:
        for got, want, arg in zip(_outputs(spec, gridded), _outputs(spec, brute), [a for a in spec.args if a.is_written]):
            if arg.ndim == 2:  # neighbour lists: the same set per row (visiting orders differ), full rows aside
                for row_got, row_want in zip(got, want):
                    if (row_got >= 0).all():
                        continue
                    assert sorted(row_got[row_got >= 0]) == sorted(row_want[row_want >= 0]), spec.source
            elif arg.is_int:
                np.testing.assert_array_equal(got, want, err_msg=spec.source)
            else:  # sums in another order
                np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5 * arg.bound, err_msg=spec.source)


def test_outputs_vary_and_stay_within_their_bounds(runs):
    for spec, gridded, _ in runs:
        for got, arg in zip(_outputs(spec, gridded), [a for a in spec.args if a.is_written]):
            distinct = len(np.unique(got, axis=0))
            assert distinct >= 5 if arg.is_int else distinct > len(got) // 8, spec.source  # counts take few values
            assert np.abs(got.astype(np.float64)).max() <= arg.bound, spec.source


def _query_radius(spec: KernelSpec) -> float:
    """The radius the kernel's query reaches: its third argument, valued from the scalar arguments
    and module constants (our own generated source, never a user's)."""
    tree = ast.parse(spec.source)
    values = {a.name: a.value for a in spec.args if a.role == "scalar"}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            v = node.value.args[0] if isinstance(node.value, ast.Call) else node.value
            values[node.targets[0].id] = ast.literal_eval(v)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "wp.hash_grid_query")
    return float(eval(compile(ast.Expression(call.args[2]), "<radius>", "eval"), {"__builtins__": {}}, values))


def test_boxes_hold_the_neighbours_they_are_sized_for():
    """The box is sized for 8-24 particles within the radius on average: queries neither empty nor
    crowded (counted by brute force in numpy from the hashed positions)."""
    means = []
    for spec in [s for s in _specs() if any(a.role == "hash_grid" for a in s.args)][:20]:
        grid = next(a for a in spec.args if a.role == "hash_grid")
        points_arg = next(a for a in spec.args if a.name == grid.points)
        position = [x.name for a in spec.args for x in a.flattened()].index(points_arg.name)
        x = make_input(points_arg, position, input_seed(spec)).reshape(-1, 3).astype(np.float64)
        d2 = ((x[:, None, :] - x[None, :, :]) ** 2).sum(-1)
        radius = _query_radius(spec)
        means.append(((d2 < radius * radius).sum(1) - 1).mean())
    assert 6.0 <= float(np.mean(means)) <= 40.0, means
    assert min(means) >= 2.0, means


def test_a_normalisation_written_with_wp_static_equals_warp_on_the_host(tmp_path):
    """Where the radius is a module constant a kernel may multiply by `wp.static(315.0 / (64.0 * wp.pi *
    H ** 9))`: Warp evaluates the formula in Python when it builds the kernel; the translated sample
    holds that value as one literal and equals Warp on the host."""
    from cuda_production.host_check import run_on_host
    from cuda_production.reference import sample_args
    from cuda_production.sample import write_sample
    from cuda_production.templates import Tolerance
    from cuda_production.translator import translate_kernel

    spec = next(s for s in (generate("neighbors", seed) for seed in range(2000)) if "wp.static(" in s.source)
    radius = next(a.targets[0].id for a in ast.parse(spec.source).body if isinstance(a, ast.Assign))
    assert f" * wp.pi * {radius} ** " in spec.source or f"(wp.pi * {radius} ** " in spec.source
    kernel = translate_kernel(spec.source, spec.name, f"{spec.name}.py")
    assert "wp.pi" not in kernel.kernel_code and "powf" not in kernel.kernel_code
    expected = warp_reference([spec], "nbr_static_norm")[spec.name]
    folder = write_sample(tmp_path / spec.name, kernel, spec.source, sample_args(spec), spec.dim, input_seed(spec),
                          Tolerance(), expected, {"category": spec.category, "description": spec.description})
    run = run_on_host(folder)
    assert run.passed, run.output[-2000:]


@functools.lru_cache(maxsize=None)
def _ray_kernels(description: str) -> tuple[KernelSpec, ...]:
    return tuple(s for s in (generate("neighbors", seed) for seed in range(1500)) if description in s.description)


@pytest.mark.parametrize("variant", ["one camera position", "rays of a given length", "directions", "@wp.func"])
def test_a_ray_finds_the_nearest_sphere_it_hits(variant):
    """A ray kernel's hit particle and distance equal numpy's brute force over every sphere (the
    quadratic in float64), neither tree involved; rays that hit nothing (or only beyond the ray's
    length) report -1. Each variant: rays from one camera, of a given length, along given
    directions, with the test in a @wp.func."""
    def matches(s):
        if variant == "directions":
            return any(a.name in ("ray_dirs", "directions", "dirs") for a in s.args)
        return variant in s.description
    spec = next(s for s in _ray_kernels("its distance") if matches(s))
    bvh = next(a for a in spec.args if a.role == "bvh")
    arrays, position = {}, 0
    for a in spec.args:
        if a.kind == "array":
            arrays[a.name] = make_input(a, position, input_seed(spec)).reshape(a.shape[0], -1).astype(np.float64)
        position += len(a.flattened())
    eye = next((np.array(a.value) for a in spec.args if a.dtype == "vec3" and a.role == "scalar"), None)
    max_t = next((a.value for a in spec.args if a.name in ("max_t", "max_dist", "ray_length")), np.inf)
    centers = arrays[bvh.points]
    n_rays = spec.dim[0]
    origins = np.broadcast_to(eye, (n_rays, 3)) if eye is not None else next(
        v for k, v in arrays.items() if k in ("ray_origins", "origins", "ray_starts"))
    dirs = next((v for k, v in arrays.items() if k in ("ray_dirs", "directions", "dirs")), None)
    if dirs is None:
        dirs = next(v for k, v in arrays.items() if k in ("targets", "aim_points", "look_at")) - origins
    d = dirs / np.linalg.norm(dirs, axis=1, keepdims=True)
    m = origins[:, None, :] - centers[None, :, :]
    b = (m * d[:, None, :]).sum(-1)
    disc = b * b - ((m * m).sum(-1) - bvh.value ** 2)
    t = np.where(disc >= 0.0, -b - np.sqrt(np.maximum(disc, 0.0)), np.inf)
    t = np.where((t > 0.0) & (t < max_t), t, np.inf)
    want_id = np.where(np.isfinite(t.min(1)), t.argmin(1), -1)
    want_t = np.where(want_id >= 0, t.min(1), -1.0)
    ids, dist = _outputs(spec, warp_reference([spec], f"nbr_rays_{spec.name}")[spec.name])
    np.testing.assert_array_equal(ids[:, 0], want_id)
    np.testing.assert_allclose(dist[:, 0], want_t, rtol=1e-5, atol=1e-5)
    assert (want_id >= 0).mean() > 0.3  # many rays hit a particle


def test_every_ray_kernel_gives_an_equally_near_hit_to_the_lower_index():
    """Which sphere a ray reports must not depend on the order a BVH yields them in (Warp's tree and the
    .cu's differ): on an exact tie in t the lower particle index wins."""
    specs = _ray_kernels("Ray casting")
    assert len(specs) > 20
    for spec in specs:
        loop = next(n for n in ast.walk(ast.parse(spec.source)) if isinstance(n, ast.While))
        item = loop.test.args[1].id
        keep = next(n for n in ast.walk(loop) if isinstance(n, ast.If) and isinstance(n.test, ast.BoolOp))
        t_best = next(n.targets[0].id for n in keep.body if isinstance(n, ast.Assign))
        best = next(n.targets[0].id for n in keep.body if isinstance(n, ast.Assign) and ast.unparse(n.value) == item)
        t = ast.unparse(keep.test.values[0].left)
        assert ast.unparse(keep.test) == (f"{t} > 0.0 and ({t} < {t_best} or ({t} == {t_best} and {item} < {best}))"), \
            spec.source
