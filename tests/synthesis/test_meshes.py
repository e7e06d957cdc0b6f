"""The meshes category: mesh queries whose outputs mean one thing, whatever the mesh's BVH.

Warp and the standalone CUDA build different BVHs over the same mesh, so where two faces are
equally close (a closest point on an edge) they may report different faces. The category's kernels
write only what does not depend on that choice; the test that says so runs each kernel in Warp twice,
over the mesh as built and over the same surface with its triangles listed in reverse and each
triangle's corners rotated (a different BVH, different ties), and requires the same outputs.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import synthesis.mesh_geometry as mesh_geometry
from cuda_production.reference import warp_reference
from synthesis.categories import generate, meshes
from synthesis.spec import KernelSpec

SEEDS = range(0, 40)


def _specs() -> list[KernelSpec]:
    return [generate("meshes", seed) for seed in SEEDS]


def _outputs(spec: KernelSpec, data: bytes) -> list[tuple[str, float, np.ndarray]]:
    arrays, offset = [], 0
    for a in spec.args:
        if a.is_written:
            n = a.count * a.width
            arrays.append((a.name, a.bound, np.frombuffer(data, dtype=a.numpy_dtype, count=n, offset=offset)))
            offset += n * a.component_bytes
    return arrays


def _reordered_rock(cells: int, cell_width: float, salt: int):
    points, triangles = ROCK_MESH(cells, cell_width, salt)
    tris = np.array(triangles).reshape(-1, 3)[::-1][:, [1, 2, 0]]  # same winding, other order
    return points, tris.reshape(-1).tolist()


ROCK_MESH = mesh_geometry.rock_mesh


@pytest.fixture(scope="module")
def runs() -> list[tuple[KernelSpec, bytes, bytes]]:
    specs = _specs()
    built = warp_reference(specs, "mesh_built")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mesh_geometry, "rock_mesh", _reordered_rock)
        reordered = warp_reference(specs, "mesh_reordered")
    return [(s, built[s.name], reordered[s.name]) for s in specs]


def test_every_form_is_drawn():
    drawn = {generate("meshes", seed).description.split(" (")[0] for seed in range(200)}
    firsts = {d.split(":")[0].split(" of ")[0].split(" from ")[0] for d in drawn}
    assert len(firsts) >= len(meshes.FORMS) - 1  # the two collision summaries share a prefix


def test_every_closest_point_query_is_drawn():
    """Warp's four closest-point queries: unsigned, and signed by the axis-ray vote, the winding number
    or the closest feature's normal (example_mesh's)."""
    sources = "".join(generate("meshes", seed).source for seed in range(300))
    for call in ("mesh_query_point_no_sign(", "mesh_query_point(", "mesh_query_point_sign_winding_number(",
                 "mesh_query_point_sign_normal("):
        assert f"wp.{call}" in sources, call


def test_outputs_do_not_depend_on_which_tied_face_a_query_reports(runs):
    for spec, built, reordered in runs:
        for (name, bound, a), (_, _, b) in zip(_outputs(spec, built), _outputs(spec, reordered)):
            assert np.allclose(a, b, rtol=1e-4, atol=1e-4 * bound), f"{spec.name}.{name}: {spec.description}"


def test_outputs_vary_and_stay_within_their_bounds(runs):
    for spec, built, _ in runs:
        for name, bound, values in _outputs(spec, built):
            assert np.all(np.isfinite(values)), f"{spec.name}.{name}"
            assert np.abs(values).max() <= bound, f"{spec.name}.{name}: {np.abs(values).max()} > {bound}"
            if values.size > 1:
                assert len(np.unique(values)) > 1, f"{spec.name}.{name} is constant: {spec.description}"


def test_mesh_argument_describes_an_even_rock_with_a_non_dyadic_cell_width():
    for spec in _specs():
        mesh = next(a for a in spec.args if a.role == "mesh")
        assert mesh.flattened() == () and mesh.shape[0] % 2 == 0
        assert (mesh.value * 2 ** 20) % 1 != 0
        assert f"{mesh.name}: wp.uint64" in spec.source


def test_query_points_never_sit_on_the_surface():
    """Where a kernel's query points could lie exactly on a face (or an axis ray from them graze an
    edge), the inside/outside sign would be a coin toss: the axis-ray vote of wp.mesh_query_point, the
    closest feature's normal of wp.mesh_query_point_sign_normal and the generalised winding number
    disagree nowhere."""
    import warp as wp

    @wp.kernel
    def three_signs(mesh: wp.uint64, x: wp.array(dtype=wp.vec3), parity: wp.array(dtype=float),
                   winding: wp.array(dtype=float), normal: wp.array(dtype=float)):
        tid = wp.tid()
        parity[tid] = wp.mesh_query_point(mesh, x[tid], 1.0e6).sign
        winding[tid] = wp.mesh_query_point_sign_winding_number(mesh, x[tid], 1.0e6).sign
        normal[tid] = wp.mesh_query_point_sign_normal(mesh, x[tid], 1.0e6).sign

    from cuda_production.reference import input_seed, make_input

    disagreements = 0
    for spec in _specs()[:12]:
        mesh_arg = next(a for a in spec.args if a.role == "mesh")
        points = next((a for a in spec.args if a.dtype == "vec3" and a.role == "input"), None)
        if points is None:
            continue
        pts, tris = mesh_geometry.rock_mesh(mesh_arg.shape[0], mesh_arg.value, input_seed(spec))
        # with winding-number support (not the default, under which Warp's winding query falls back
        # to the axis-ray vote): the two signs are then computed two independent ways
        mesh = wp.Mesh(wp.array(np.array(pts, np.float32), dtype=wp.vec3, device="cpu"),
                       wp.array(np.array(tris, np.int32), dtype=wp.int32, device="cpu"),
                       support_winding_number=True)
        x = wp.array(make_input(points, 0, input_seed(spec)).reshape(-1, 3), dtype=wp.vec3, device="cpu")
        parity, winding, normal = (wp.zeros(x.shape[0], dtype=float, device="cpu") for _ in range(3))
        wp.launch(three_signs, dim=x.shape[0], inputs=[mesh.id, x, parity, winding, normal], device="cpu")
        disagreements += int((parity.numpy() != winding.numpy()).sum() + (normal.numpy() != winding.numpy()).sum())
        assert (winding.numpy() < 0).any() and (winding.numpy() > 0).any()
    assert disagreements == 0


def test_every_coefficient_is_positive_and_descriptions_name_the_grid_drawn():
    """A falloff scale or band of 0.0 (the voxel size of a flattened launch taken as the grid's)
    makes every output 0: no kernel takes a zero or negative knob."""
    for seed in range(300):
        spec = generate("meshes", seed)
        for a in spec.args:
            if a.role == "scalar" and isinstance(a.value, float):
                assert a.value > 0.0, (seed, a.name)
        for line in spec.source.splitlines():
            if line.isupper() or " = wp.constant(" in line or (line[:1].isupper() and " = " in line):
                assert not line.rstrip().endswith(("= 0.0", "(0.0)")), (seed, line)
        if "^3 grid" in spec.description:
            res = int(spec.description.split("^3 grid")[0].rsplit(" ", 1)[1])
            assert res in meshes.SDF_RESOLUTIONS, spec.description


def test_cameras_keep_their_rays_off_the_faces_diagonals():
    """A camera at (a, b, d) with |a| == |b| sends a row of rays through the plane x = y (or x = -y),
    which holds the diagonals splitting the rock's faces: those rays meet an edge exactly, where Warp
    and the .cu may shade different faces. Every image kernel's camera has |a| != |b|."""
    specs = [s for s in (generate("meshes", seed) for seed in range(600)) if s.description.startswith("Ray-cast")]
    cameras = [a.value for s in specs for a in s.args
               if a.role == "scalar" and a.dtype == "vec3" and a.name in ("cam_pos", "camera", "eye", "origin")]
    assert len(cameras) > 20
    assert all(abs(c[0]) != abs(c[1]) for c in cameras)


def test_a_ray_cast_image_is_timed_at_its_own_size():
    """Its camera's pixel grid is written into the code (`(float(x) - 63.5) / 48.0`): grown, the launch's
    new pixels would all look past the mesh (their rays miss; the image's bench timed background), so the
    image keeps its size and so does its launch (bench.pinned_launch); other mesh kernels grow."""
    from cuda_production.bench import bench_launch_dim, pinned_launch

    images = others = 0
    for seed in range(200):
        spec = generate("meshes", seed)
        image = spec.description.startswith("Ray-cast")
        assert pinned_launch(list(spec.args), spec.dim) == image, spec.source
        assert (bench_launch_dim(list(spec.args), spec.dim) == spec.dim) == image
        images, others = images + image, others + (not image)
    assert images >= 5 and others >= 50


VARIANTS = ("Damped spring", "each point's flag", "Counts and masses", "the triangles' count stored", "a radius per point",
            "Lambert's cosine")


@pytest.fixture(scope="module")
def variant_runs() -> list[tuple[KernelSpec, dict, bytes, bytes]]:
    """Two kernels of each variant (meshes.variant), run over the mesh as built and reordered."""
    specs = []
    for v in VARIANTS:
        specs += [s for s in (generate("meshes", seed) for seed in range(3000)) if v in s.description][:2]
    built = warp_reference(specs, "mesh_variant_built")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mesh_geometry, "rock_mesh", _reordered_rock)
        reordered = warp_reference(specs, "mesh_variant_reordered")
    return [(s, {n: v for n, _, v in _outputs(s, built[s.name])}, built[s.name], reordered[s.name]) for s in specs]


def test_every_variant_is_drawn_and_independent_of_the_bvh(variant_runs):
    assert {v for s, *_ in variant_runs for v in VARIANTS if v in s.description} == set(VARIANTS)
    for spec, _, built, reordered in variant_runs:
        for (name, bound, a), (_, _, b) in zip(_outputs(spec, built), _outputs(spec, reordered)):
            assert np.allclose(a, b, rtol=1e-4, atol=1e-4 * bound), f"{spec.name}.{name}: {spec.description}"
            assert np.all(np.isfinite(a)) and np.abs(a).max() <= bound, f"{spec.name}.{name}"


def test_the_variants_outputs_agree_with_each_other(variant_runs):
    """Flags sum to the count inside; the two mass bins hold every point's mass (masses are dyadic: the
    sums are exact) and the two count bins every point; a direction is written exactly where the
    triangles' count is not 0."""
    from tests.cuda_production.harness import inputs

    for spec, out, _, _ in variant_runs:
        written = [a for a in spec.args if a.is_written]
        if "each point's flag" in spec.description:
            flags = next(out[a.name] for a in written if a.shape == spec.dim)
            counter = next(out[a.name] for a in written if a.shape == (1,))
            assert flags.sum() == counter[0] > 0
        if "Counts and masses" in spec.description:
            arrays = inputs(spec)
            mass = next(arrays[a.name] for a in spec.args if a.name in ("mass", "m", "point_mass"))
            counts = next(out[a.name] for a in written if a.dtype == "int32")
            masses = next(out[a.name] for a in written if a.dtype == "float32")
            assert counts.sum() == spec.dim[0] and masses.sum() == np.float32(mass.sum())
        if "Lambert's cosine" in spec.description:  # lit points facing away from the light get nothing
            irradiance = next(out[a.name] for a in written)
            assert irradiance.min() == 0.0 and irradiance.max() > 0.0
            assert np.count_nonzero(irradiance) > irradiance.size // 10
        if "the triangles' count stored" in spec.description:
            count = next(out[a.name] for a in written if a.dtype == "int32")
            direction = next(out[a.name] for a in written if a.dtype == "vec3").reshape(-1, 3)
            assert np.array_equal(count > 0, np.any(direction != 0.0, axis=1))


def test_a_points_other_inputs_are_read_where_the_point_is():
    """Where the thread's point comes through an index array (`pid = indices[tid]; p = pos[pid]`), its
    velocity, mass, radius or normal is read at `pid` too, never at `tid` (another point's)."""
    checked = 0
    for seed in range(4000):
        spec = generate("meshes", seed)
        if "points through an index array" not in spec.description or not any(v in spec.description for v in VARIANTS):
            continue
        checked += 1
        index = next(a.name for a in spec.args if a.role == "index")
        inputs = {a.name for a in spec.args if a.role == "input" and a.shape == spec.dim}
        read_at_tid = set(re.findall(r"(\w+)\[tid\]", spec.source)) & inputs
        assert read_at_tid <= {index}, spec.source
    assert checked >= 5
