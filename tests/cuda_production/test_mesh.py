"""Mesh queries (`wp.Mesh`): translated kernels, the sample's host-built rock and BVH, and bench
sizing, each checked against Warp's CPU on the host (g++ emulation of the sample's own .cu).

The .cu mirrors Warp's per-triangle arithmetic (closest point, sliver test, watertight ray test, the
three-ray sign vote) but searches its own BVH, so where two triangles are equally near (a closest
point or a ray hit on an edge) it may report the other one. The kernels here write only what does
not depend on that (distances, closest points, signs off the surface, hit distances and flags, the
normals of hits inside a face), on a rock whose cell width (0.1) is not dyadic, so that no query
point or ray lines up exactly with its vertices and edges.
"""
from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess

import numpy as np
import pytest

from cuda_production.bench import MESH_THREADS, bench_args, bench_launch_dim, bench_metadata, bytes_moved
from cuda_production.compile_cuda import find_nvcc, validate_samples
from cuda_production.host_check import compile_host, run_on_host
from cuda_production.reference import input_seed, sample_args, warp_reference
from cuda_production.sample import write_sample
from cuda_production.templates import Tolerance, host_arrays
from cuda_production.translator import TranslationError, translate_kernel, translate_source
from synthesis.mesh_geometry import rock_mesh, rock_triangle_count
from synthesis.spec import ArgSpec, KernelSpec

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")

N = 256  # queries, one thread each
CELLS, WIDTH = 8, 0.1  # the rock: [-0.4, 0.4]^3 and bumps up to 0.075 outward


def mesh(cells: int = CELLS, width: float = WIDTH, name: str = "mesh") -> ArgSpec:
    return ArgSpec(name, "uint64", "mesh", (cells,), value=width)


def points(name: str = "x", reach: float = 0.75, role: str = "input") -> ArgSpec:
    """Query points in [-reach, reach]^3 on a 1/1024 grid: some inside the rock, most outside."""
    return ArgSpec(name, "vec3", role, (N,), -reach, reach, 10, bound=1.0)


def out(name: str, dtype: str = "float32", bound: float = 4.0, shape=(N,)) -> ArgSpec:
    if dtype == "int32":
        return ArgSpec(name, dtype, "output", shape, 0, 1, 0, bound=1.0)
    return ArgSpec(name, dtype, "output", shape, bound=bound)


def scalar(name: str, value, dtype: str = "float32") -> ArgSpec:
    return ArgSpec(name, dtype, "scalar", value=value)


def spec(name: str, source: str, args: list[ArgSpec], dim=(N,)) -> KernelSpec:
    return KernelSpec(name, "mesh_test", f"test kernel {name}", source, tuple(args), tuple(dim), seed=9091)


# wp.mesh_query_point_no_sign + wp.mesh_eval_position: the distance to the surface and the closest
# point, within a search radius that some points are beyond
UNSIGNED = """
@wp.kernel
def unsigned_distance(mesh: wp.uint64, x: wp.array(dtype=wp.vec3), max_dist: float, dist: wp.array(dtype=float),
                      closest: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    p = x[tid]
    q = wp.mesh_query_point_no_sign(mesh, p, max_dist)
    if q.result:
        c = wp.mesh_eval_position(mesh, q.face, q.u, q.v)
        dist[tid] = wp.length(p - c)
        closest[tid] = c
    else:
        dist[tid] = max_dist
        closest[tid] = p
"""

# the signed distance by winding number (Warp falls back to the three-ray vote for a mesh built
# without support_winding_number), `accuracy` given by keyword
SIGNED_WINDING = """
@wp.kernel
def signed_distance(mesh: wp.uint64, x: wp.array(dtype=wp.vec3), sdf: wp.array(dtype=float)):
    tid = wp.tid()
    p = x[tid]
    q = wp.mesh_query_point_sign_winding_number(mesh, p, 1.0e6, accuracy=3.0)
    c = wp.mesh_eval_position(mesh, q.face, q.u, q.v)
    sdf[tid] = q.sign * wp.length(p - c)
"""

# wp.mesh_query_point's sign alone: inside or not
INSIDE = """
@wp.kernel
def inside_test(mesh: wp.uint64, x: wp.array(dtype=wp.vec3), inside: wp.array(dtype=int)):
    tid = wp.tid()
    q = wp.mesh_query_point(mesh, x[tid], 1.0e6)
    inside[tid] = wp.where(q.sign < 0.0, 1, 0)
"""

# the sign by the angle-weighted normal of the nearest feature, its epsilon defaulted
SIGN_NORMAL = """
@wp.kernel
def normal_signed_distance(mesh: wp.uint64, x: wp.array(dtype=wp.vec3), sdf: wp.array(dtype=float)):
    tid = wp.tid()
    p = x[tid]
    q = wp.mesh_query_point_sign_normal(mesh, p, 1.0e6)
    if q.result:
        sdf[tid] = q.sign * wp.length(p - wp.mesh_eval_position(mesh, q.face, q.u, q.v))
"""

# points moved onto the surface, in place
PROJECT = """
@wp.kernel
def project_to_surface(mesh: wp.uint64, x: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    q = wp.mesh_query_point_no_sign(mesh, x[tid], 1.0e6)
    x[tid] = wp.mesh_eval_position(mesh, q.face, q.u, q.v)
"""

# particles of a radius pushed out of the rock along the signed direction (Warp's particle-mesh contact)
PUSH_OUT = """
@wp.kernel
def push_out(mesh: wp.uint64, x: wp.array(dtype=wp.vec3), radius: float):
    tid = wp.tid()
    p = x[tid]
    q = wp.mesh_query_point(mesh, p, 4.0 * radius)
    if q.result:
        c = wp.mesh_eval_position(mesh, q.face, q.u, q.v)
        delta = p - c
        d = wp.length(delta) * q.sign
        err = d - radius
        if err < 0.0:
            n = wp.normalize(delta) * q.sign
            x[tid] = p - n * err
"""

# rays from the points toward the origin: the hit distance and a hit flag, within max_t
RAY_TO_ORIGIN = """
@wp.kernel
def ray_to_origin(mesh: wp.uint64, x: wp.array(dtype=wp.vec3), max_t: float, t: wp.array(dtype=float),
                  hit: wp.array(dtype=int)):
    tid = wp.tid()
    p = x[tid]
    d = wp.normalize(-p)
    r = wp.mesh_query_ray(mesh, p, d, max_t)
    t[tid] = wp.where(r.result, r.t, -1.0)
    hit[tid] = wp.where(r.result, 1, 0)
"""

# the face normal of each hit, and the query's own normal and hit side
HIT_NORMALS = """
@wp.kernel
def hit_normals(mesh: wp.uint64, x: wp.array(dtype=wp.vec3), normal: wp.array(dtype=wp.vec3),
                same: wp.array(dtype=int), front: wp.array(dtype=int)):
    tid = wp.tid()
    p = x[tid]
    r = wp.mesh_query_ray(mesh, p, wp.normalize(-p), 1.0e6)
    if r.result:
        n = wp.mesh_eval_face_normal(mesh, r.face)
        normal[tid] = n
        same[tid] = wp.where(wp.length(n - r.normal) == 0.0, 1, 0)
        front[tid] = wp.where(r.sign > 0.0, 1, 0)
"""

# a camera's rays from a 2-D launch: a depth image and a coverage mask
W = 16
CAMERA = f"""
@wp.kernel
def render_depth(mesh: wp.uint64, eye: wp.vec3, depth: wp.array2d(dtype=float), mask: wp.array2d(dtype=int)):
    i, j = wp.tid()
    sx = (float(j) + 0.5) / {float(W)} * 2.0 - 1.0
    sy = (float(i) + 0.5) / {float(W)} * 2.0 - 1.0
    d = wp.normalize(wp.vec3(sx, sy, -2.0))
    r = wp.mesh_query_ray(mesh, eye, d, 100.0)
    depth[i, j] = wp.where(r.result, r.t, 0.0)
    mask[i, j] = wp.where(r.result, 1, 0)
"""

# every triangle's corners in order, through wp.mesh_eval_position with weights 1 and 0 (exact);
# threads past the last triangle (at bench size) do nothing
CORNERS = """
@wp.kernel
def corners(mesh: wp.uint64, num_faces: int, out: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    face = tid // 3
    if face >= num_faces:
        return
    corner = tid - face * 3
    u = wp.where(corner == 0, 1.0, 0.0)
    v = wp.where(corner == 1, 1.0, 0.0)
    out[tid] = wp.mesh_eval_position(mesh, face, u, v)
"""

# the mesh passed to a @wp.func, after the arrays, under another name
HELPER = """
@wp.func
def surface_distance(geometry: wp.uint64, p: wp.vec3, max_dist: float) -> float:
    q = wp.mesh_query_point_no_sign(geometry, p, max_dist)
    if q.result:
        return wp.length(p - wp.mesh_eval_position(geometry, q.face, q.u, q.v))
    return max_dist


@wp.kernel
def helper_distance(x: wp.array(dtype=wp.vec3), dist: wp.array(dtype=float), collider: wp.uint64):
    tid = wp.tid()
    dist[tid] = surface_distance(collider, x[tid], 0.25)
"""

# wp.mesh_query_aabb: the triangles whose bounds overlap a box around each point, counted, and the
# nearest of their centres (a broad phase and a cheap narrow test after it)
AABB = """
@wp.kernel
def faces_near(mesh: wp.uint64, x: wp.array(dtype=wp.vec3), r: float, count: wp.array(dtype=int),
               nearest: wp.array(dtype=float)):
    tid = wp.tid()
    p = x[tid]
    query = wp.mesh_query_aabb(mesh, p - wp.vec3(r), p + wp.vec3(r))
    face = int(0)
    n = int(0)
    best = float(1.0)
    while wp.mesh_query_aabb_next(query, face):
        n += 1
        c = wp.mesh_eval_position(mesh, face, 1.0 / 3.0, 1.0 / 3.0)
        best = wp.min(best, wp.length(p - c))
    count[tid] = n
    nearest[tid] = best
"""

# The same broad phase as a for-loop over the query (Warp's example_mesh_intersect writes it so)
AABB_FOR = AABB.replace("def faces_near(", "def faces_near_for(").replace(
    "    face = int(0)\n", "").replace("while wp.mesh_query_aabb_next(query, face):", "for face in query:")

TRIANGLES = rock_triangle_count(CELLS)
SPECS = {
    "unsigned_distance": spec("unsigned_distance", UNSIGNED, [mesh(), points(), scalar("max_dist", 0.3), out("dist"),
                                                              out("closest", "vec3", 1.0)]),
    "signed_distance": spec("signed_distance", SIGNED_WINDING, [mesh(), points(), out("sdf")]),
    "inside_test": spec("inside_test", INSIDE, [mesh(), points(), out("inside", "int32")]),
    "normal_signed_distance": spec("normal_signed_distance", SIGN_NORMAL, [mesh(), points(), out("sdf")]),
    "project_to_surface": spec("project_to_surface", PROJECT, [mesh(), points(role="inout")]),
    "push_out": spec("push_out", PUSH_OUT, [mesh(), points(reach=0.6, role="inout"), scalar("radius", 0.05)]),
    "ray_to_origin": spec("ray_to_origin", RAY_TO_ORIGIN, [mesh(), points(reach=1.0), scalar("max_t", 0.6), out("t"),
                                                          out("hit", "int32")]),
    "hit_normals": spec("hit_normals", HIT_NORMALS, [mesh(), points(reach=1.0), out("normal", "vec3", 1.0),
                                                     out("same", "int32"), out("front", "int32")]),
    "render_depth": spec("render_depth", CAMERA, [mesh(), ArgSpec("eye", "vec3", "scalar", value=(0.0137, -0.0213, 2.5)),
                                                  out("depth", shape=(W, W)), out("mask", "int32", shape=(W, W))],
                         dim=(W, W)),
    "corners": spec("corners", CORNERS, [mesh(), scalar("num_faces", TRIANGLES, "int32"),
                                         out("out", "vec3", 1.0, shape=(3 * TRIANGLES,))], dim=(3 * TRIANGLES,)),
    "corners_dyadic": spec("corners", CORNERS, [mesh(10, 0.125), scalar("num_faces", rock_triangle_count(10), "int32"),
                                                out("out", "vec3", 1.0, shape=(3 * rock_triangle_count(10),))],
                           dim=(3 * rock_triangle_count(10),)),
    "helper_distance": spec("helper_distance", HELPER, [points(), out("dist"), mesh(name="collider")]),
    "faces_near": spec("faces_near", AABB, [mesh(), points(reach=0.6), scalar("r", 0.125),
                                            ArgSpec("count", "int32", "output", (N,), bound=float(TRIANGLES)),
                                            out("nearest", bound=1.0)]),
    "faces_near_for": spec("faces_near_for", AABB_FOR, [mesh(), points(reach=0.6), scalar("r", 0.125),
                                                        ArgSpec("count", "int32", "output", (N,), bound=float(TRIANGLES)),
                                                        out("nearest", bound=1.0)]),
}


@pytest.fixture(scope="module")
def expected() -> dict[str, bytes]:
    """Warp's CPU values of every kernel (the two corner dumps share a kernel: one module each)."""
    values = warp_reference([s for k, s in SPECS.items() if k != "corners_dyadic"], "t_mesh")
    values["corners_dyadic"] = warp_reference([SPECS["corners_dyadic"]], "t_mesh_dyadic")["corners"]
    return values


def write(tmp_path, key: str, expected: bytes | None, s: KernelSpec | None = None):
    s = s or SPECS[key]
    kernel = translate_kernel(s.source, s.name, f"{s.name}.py")
    folder = write_sample(tmp_path / key, kernel, s.source, sample_args(s), s.dim, input_seed(s), Tolerance(),
                          expected, {"category": s.category, "description": s.description})
    return folder, (folder / f"{s.name}.cu").read_text()


def check(tmp_path, expected, key: str):
    folder, cu = write(tmp_path, key, expected[key])
    run = run_on_host(folder)
    assert run.passed, run.output[-2000:]
    return run, cu


def floats(data: bytes, count: int, offset: int = 0) -> np.ndarray:
    return np.frombuffer(data, dtype=np.float32, count=count, offset=offset)


def ints(data: bytes, count: int, offset: int = 0) -> np.ndarray:
    return np.frombuffer(data, dtype=np.int32, count=count, offset=offset)


def test_unsigned_distance_and_closest_point_equal_warp(tmp_path, expected):
    run, cu = check(tmp_path, expected, "unsigned_distance")
    assert "struct Mesh" in cu and "build_rock_mesh(" in cu and "mesh_nearest_face(" in cu
    dist = floats(expected["unsigned_distance"], N)
    assert 0 < (dist < 0.3).sum() < N  # some points within the search radius, some beyond it


def test_signed_distance_by_winding_number_equals_warp(tmp_path, expected):
    run, cu = check(tmp_path, expected, "signed_distance")
    assert "mesh_query_point_sign_winding_number(mesh, p, 1000000.0f, 3.0f)" in cu  # as written, the default left out
    sdf = floats(expected["signed_distance"], N)
    assert 0 < (sdf < 0).sum() < N // 2  # inside and outside points


def test_mesh_query_point_sign_equals_warp(tmp_path, expected):
    check(tmp_path, expected, "inside_test")
    inside = ints(expected["inside_test"], N)
    assert 0 < inside.sum() < N // 2


def test_sign_by_normals_equals_warp(tmp_path, expected):
    run, cu = check(tmp_path, expected, "normal_signed_distance")
    assert "mesh_query_point_sign_normal(mesh, p, 1000000.0f)" in cu
    sdf = floats(expected["normal_signed_distance"], N)
    assert 0 < (sdf < 0).sum() < N // 2


def test_projection_onto_the_surface_equals_warp(tmp_path, expected):
    check(tmp_path, expected, "project_to_surface")
    projected = floats(expected["project_to_surface"], 3 * N).reshape(N, 3)
    # on the rock's surface: within the bumped cube, on or beyond the plain one's faces
    assert (np.abs(projected).max(axis=1) >= 0.4 - 1e-6).all() and (np.abs(projected) <= 0.4 + 0.075 + 1e-6).all()


def test_particles_pushed_out_equal_warp(tmp_path, expected):
    check(tmp_path, expected, "push_out")
    s = SPECS["push_out"]
    from cuda_production.reference import make_input

    before = make_input(s.args[1], 0, input_seed(s)).reshape(N, 3)
    after = floats(expected["push_out"], 3 * N).reshape(N, 3)
    moved = np.abs(after - before).max(axis=1) > 0
    assert 0 < moved.sum() < N  # the particles inside or within the radius moved, the others did not


def test_rays_toward_the_origin_equal_warp(tmp_path, expected):
    check(tmp_path, expected, "ray_to_origin")
    hit = ints(expected["ray_to_origin"], N, 4 * N)
    assert 0 < hit.sum() < N  # max_t cuts some rays short


def test_hit_face_normals_equal_warp(tmp_path, expected):
    check(tmp_path, expected, "hit_normals")
    same = ints(expected["hit_normals"], N, 12 * N)
    front = ints(expected["hit_normals"], N, 16 * N)
    assert same.all()  # every ray from a point toward the origin hits the rock: the query's normal is the face's
    assert 0 < front.sum() < N  # rays from outside meet a front face, rays from inside a back face


def test_camera_rays_from_a_2d_launch_equal_warp(tmp_path, expected):
    run, cu = check(tmp_path, expected, "render_depth")
    assert "max_abs_err=0 " in run.output, run.output[-500:]
    mask = ints(expected["render_depth"], W * W, 4 * W * W)
    assert 0 < mask.sum() < W * W  # the rock fills part of the image


def test_the_host_builds_the_rock_of_mesh_geometry_point_for_point(tmp_path, expected):
    """Every triangle's corners, in order, read back through the .cu's mesh equal rock_mesh's (and
    Warp's): the same vertices, the same triangles, the same floats; with a dyadic cell width too."""
    seed = input_seed(SPECS["corners"])
    for key in ("corners", "corners_dyadic"):
        s = SPECS[key]
        cells, width = s.args[0].shape[0], s.args[0].value
        pts, tris = rock_mesh(cells, width, seed)
        want = np.array(pts, dtype=np.float32)[np.array(tris)]
        assert np.array_equal(floats(expected[key], want.size).reshape(-1, 3), want)
        folder, _ = write(tmp_path, key, expected[key])
        run = run_on_host(folder)
        assert run.passed and "max_abs_err=0 " in run.output, run.output[-2000:]


def test_the_rock_is_salted_by_the_input_seed(tmp_path, expected):
    """Another seed builds another rock in the .cu as in the reference: the corners differ from the
    first seed's, and still equal Warp's."""
    s = dataclasses.replace(SPECS["corners"], seed=SPECS["corners"].seed + 1)
    other = warp_reference([s], "t_mesh_salt")["corners"]
    assert other != expected["corners"]
    folder, _ = write(tmp_path, "corners_salted", other, s)
    run = run_on_host(folder)
    assert run.passed and "max_abs_err=0 " in run.output, run.output[-2000:]


def test_a_mesh_passed_to_a_helper_equals_warp(tmp_path, expected):
    run, cu = check(tmp_path, expected, "helper_distance")
    assert "__device__ float surface_distance(const Mesh& geometry, float3 p, float max_dist)" in cu
    assert "surface_distance(collider, x[tid], 0.25f)" in cu


def test_a_mesh_takes_no_hashed_input_position():
    """The arrays around a mesh hash as if it were not there, as the reference builds them."""
    s = SPECS["helper_distance"]
    kernel = translate_kernel(s.source, s.name)
    assert {h.label: h.position for h in host_arrays(kernel, list(s.args))} == {"x": 0, "dist": 1}


def test_the_queries_are_translated_as_written():
    kernel = translate_kernel(SPECS["unsigned_distance"].source, "unsigned_distance").kernel_code
    assert "__global__ void unsigned_distance(\n    Mesh mesh,\n" in kernel  # by value
    assert "MeshQueryPoint q = mesh_query_point_no_sign(mesh, p, max_dist);" in kernel
    assert "if (q.result) {" in kernel
    assert "float3 c = mesh_eval_position(mesh, q.face, q.u, q.v);" in kernel
    ray = translate_kernel(SPECS["ray_to_origin"].source, "ray_to_origin").kernel_code
    assert "MeshQueryRay r = mesh_query_ray(mesh, p, d, max_t);" in ray


REFUSED = {
    "sphere_query": ("""
@wp.kernel
def sphere_query(mesh: wp.uint64, x: wp.array(dtype=wp.vec3), out: wp.array(dtype=int)):
    tid = wp.tid()
    q = wp.mesh_query_sphere(mesh, x[tid], 0.1)
    out[tid] = 0
""", "wp.uint64 parameter 'mesh' used other than as the grid of wp.hash_grid_query / wp.hash_grid_point_id, the mesh "
     "of wp.mesh_query_point"),
    "furthest": ("""
@wp.kernel
def furthest(mesh: wp.uint64, x: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    tid = wp.tid()
    q = wp.mesh_query_furthest_point_no_sign(mesh, x[tid], 0.0)
    out[tid] = q.u
""", "wp.mesh_query_furthest_point_no_sign is not translated"),
    "velocity": ("""
@wp.kernel
def velocity(mesh: wp.uint64, out: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    out[tid] = wp.mesh_eval_velocity(mesh, tid, 0.5, 0.5)
""", "wp.mesh_eval_velocity is not translated"),
    "output_arguments": ("""
@wp.kernel
def output_arguments(mesh: wp.uint64, x: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    tid = wp.tid()
    sign = float(0.0)
    face = int(0)
    u = float(0.0)
    v = float(0.0)
    if wp.mesh_query_point(mesh, x[tid], 1.0, sign, face, u, v):
        out[tid] = sign
""", "wp.mesh_query_point writing its results through output arguments"),
    "ray_root": ("""
@wp.kernel
def ray_root(mesh: wp.uint64, x: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    tid = wp.tid()
    r = wp.mesh_query_ray(mesh, x[tid], wp.vec3(0.0, 0.0, 1.0), 1.0, 0)
    out[tid] = r.t
""", "wp.mesh_query_ray with a root (a grouped mesh's subtree)"),
    "grid_and_mesh": ("""
@wp.kernel
def grid_and_mesh(ids: wp.uint64, x: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    tid = wp.tid()
    q = wp.mesh_query_point(ids, x[tid], 1.0)
    for j in wp.hash_grid_query(ids, x[tid], 1.0):
        out[tid] = q.sign
""", "wp.uint64 parameter 'ids' used both as a hash grid and as a mesh"),
    "grid_to_helper": ("""
@wp.func
def count(grid: wp.uint64, p: wp.vec3) -> int:
    n = int(0)
    for j in wp.hash_grid_query(grid, p, 1.0):
        n += 1
    return n


@wp.kernel
def grid_to_helper(grid: wp.uint64, x: wp.array(dtype=wp.vec3), out: wp.array(dtype=int)):
    tid = wp.tid()
    out[tid] = count(grid, x[tid])
""", "a hash grid passed to the @wp.func 'count' (only meshes are passed to helpers)"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_mesh_uses_not_translated_are_refused(name):
    source, message = REFUSED[name]
    result = translate_source(source, f"{name}.py")[name]
    assert isinstance(result, TranslationError), result
    assert "unsupported" in str(result) and message in str(result), str(result)


def test_the_translate_cli_gives_a_users_mesh_a_rock_of_its_declared_size_and_equals_warp(tmp_path_factory):
    """The user's code builds the mesh, so the .cu stands a rock in for it: 16 cells 0.125 wide (the
    default inputs' [-1, 1]) unless declared; Warp's reference queries the same rock."""
    from tests.cuda_production.harness import translate_checked

    declared = "# translate: mesh shape=8 value=0.25\n"
    for name, header, want in (("default_rock", "", [16, 0.125]), ("declared_rock", declared, [8, 0.25])):
        code, _, err, out = translate_checked(tmp_path_factory, name, "import warp as wp\n" + UNSIGNED.replace(
            "@wp.kernel", header + "@wp.kernel"))
        assert code == 0, err
        meta = json.loads((out / "unsigned_distance" / "metadata.json").read_text())
        mesh = next(a for a in meta["arguments"] if a["role"] == "mesh")
        assert [mesh["shape"][0], mesh["value"]] == want
        assert f"(mesh: a stand-in rock mesh of {rock_triangle_count(want[0])} triangles" in meta["description"]


def test_a_declared_mesh_of_an_odd_number_of_cells_is_one_line_naming_it(tmp_path, capsys):
    from cuda_production.translate import translate_file

    source = tmp_path / "user.py"
    source.write_text("import warp as wp\n" + UNSIGNED.replace("@wp.kernel", "# translate: mesh shape=7\n@wp.kernel"))
    code = translate_file(source, tmp_path / "out")
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert code == 2 and len(err) == 1, err
    assert "parameter 'mesh'" in err[0] and "shape of a mesh is [cells], an even number from 2 to 64" in err[0]
    assert not (tmp_path / "out" / "unsigned_distance").exists()


@pytest.mark.skipif(find_nvcc() is None, reason="nvcc not installed")
def test_the_samples_compile_with_nvcc(tmp_path):
    items = []
    for key in ("signed_distance", "normal_signed_distance", "push_out", "hit_normals", "render_depth", "helper_distance"):
        folder, _ = write(tmp_path, key, None)
        items.append((folder / f"{SPECS[key].name}.cu", SPECS[key].name))
    results = validate_samples(items)
    assert [r.status for r in results] == ["ok"] * len(items), [r.log for r in results]


def test_bench_size_grows_the_queries_not_the_mesh_and_equals_warp_there(tmp_path):
    """At --bench the query arrays grow with the launch and the mesh stays as it is: the bench-size
    results equal Warp's CPU on bench_args' inputs, and the bytes the .cu reports count the query
    arrays only, as bench_metadata does."""
    s = SPECS["ray_to_origin"]
    outer = 4 * N
    sized = bench_args(list(s.args), s.dim, (outer,))
    by_name = {a.name: a for a in sized}
    assert by_name["mesh"] == s.args[0] and by_name["x"].shape == (outer,)
    want = warp_reference([dataclasses.replace(s, args=tuple(sized), dim=(outer,))], "t_mesh_bench")[s.name]
    folder, _ = write(tmp_path, "ray_to_origin", None)
    dump = tmp_path / "bench.bin"
    run = run_on_host(folder, run_args=("--bench", "--bench-dim", str(outer), "--dump", str(dump),
                                        "--warmup", "0", "--trials", "1", "--launches", "1"))
    assert run.returncode == 0, run.output[-2000:]
    assert dump.read_bytes() == want
    line = json.loads(next(l for l in run.output.splitlines() if l.startswith("{")))
    assert (line["bytes_read"], line["bytes_written"]) == bytes_moved(sized) == (outer * 12, outer * (4 + 4))


def test_a_mesh_kernel_grows_to_at_most_mesh_threads():
    """Its queries are BVH traversals (bench.py: MESH_THREADS), not a few bytes each: the same arrays
    without the mesh grow to the byte target's 2**22 and more."""
    s = SPECS["unsigned_distance"]
    assert bench_launch_dim(list(s.args), s.dim) == (MESH_THREADS,)
    assert bench_launch_dim(list(s.args[1:]), s.dim)[0] >= 4 * MESH_THREADS
    grid = SPECS["render_depth"]
    assert bench_launch_dim(list(grid.args), grid.dim) == (MESH_THREADS // W, W)


def test_bench_metadata_records_the_mesh():
    s = SPECS["unsigned_distance"]
    meta = bench_metadata(list(s.args), s.dim)
    outer = meta["launch_dim"][0]
    assert outer > N and meta["arrays"]["x"]["shape"] == [outer]
    entry = meta["meshes"]["mesh"]
    assert (entry["cells"], entry["cell_width"], entry["triangles"], entry["vertices"]) == (8, 0.1, 768, 386)
    assert "keeps its size" in entry["rule"]
    assert meta["bytes_read"] == outer * 12 and meta["bytes_written"] == outer * (4 + 12)
    assert "meshes" not in bench_metadata([points(), out("d")], (N,))  # only where there is one


def test_a_box_query_finds_the_triangles_whose_bounds_touch_it(tmp_path, expected):
    """wp.mesh_query_aabb: the .cu equals Warp on the host, and Warp's count per point equals numpy's
    brute force over the rock's triangles (the box of each one's corners against [p - r, p + r])."""
    run, cu = check(tmp_path, expected, "faces_near")
    assert "MeshQueryAabb query = mesh_query_aabb(mesh, " in cu and "while (mesh_query_aabb_next(query, face))" in cu
    s = SPECS["faces_near"]
    from tests.cuda_production.harness import inputs

    x = np.asarray(inputs(s)["x"], dtype=np.float32).reshape(N, 3)
    pts, tris = rock_mesh(CELLS, WIDTH, input_seed(s))
    corners = np.array(pts, dtype=np.float32)[np.array(tris).reshape(-1, 3)]
    lo, hi = corners.min(axis=1), corners.max(axis=1)
    r = np.float32(0.125)
    q_lo, q_hi = x - r, x + r
    overlap = ~((q_lo[:, None] > hi[None]).any(-1) | (q_hi[:, None] < lo[None]).any(-1))
    want = overlap.sum(axis=1)
    np.testing.assert_array_equal(ints(expected["faces_near"], N), want)
    assert want.min() == 0 and want.max() >= 4  # points far from the surface find none; near it, several


def test_a_for_loop_over_a_box_query_is_its_while_loop_and_equals_warp(tmp_path, expected):
    """`for face in query:` advances the query as `while wp.mesh_query_aabb_next(query, face)` does: the
    same triangles, so the same outputs as the while form's (and Warp's)."""
    assert "for face in query:" in AABB_FOR and "mesh_query_aabb_next" not in AABB_FOR
    run, cu = check(tmp_path, expected, "faces_near_for")
    assert "while (mesh_query_aabb_next(query, face))" in cu
    assert expected["faces_near_for"] == expected["faces_near"]


# A host program over the .cu's own definitions (everything before its main()): builds the rock and
# its BVH as main() does, walks the tree, and builds the median-split tree over the same triangle boxes
TREE_MAIN = r'''
struct TreeStats { int bad, depth, leaves; double cost; };

// Every slot in exactly one leaf of at most `leaf_size`, every child's box inside its parent's, and
// the expected cost of a ray meeting the tree (the surface area heuristic: each node's box area over
// the root's, leaves weighted by their triangles)
static TreeStats walk(const BvhNode* nodes, int num_items, int leaf_size)
{
    auto area = [](const BvhNode& n) {
        const double dx = n.upper.x - n.lower.x, dy = n.upper.y - n.lower.y, dz = n.upper.z - n.lower.z;
        return dx * dy + dy * dz + dz * dx;
    };
    TreeStats stats{0, 0, 0, 0.0};
    std::vector<int> seen(num_items, 0);
    std::vector<std::pair<int, int>> todo{{0, 0}};
    while (!todo.empty()) {
        const auto [index, depth] = todo.back();
        todo.pop_back();
        const BvhNode& node = nodes[index];
        stats.depth = std::max(stats.depth, depth);
        if (node.count > 0) {
            ++stats.leaves;
            stats.bad += node.count > leaf_size;
            stats.cost += area(node) * node.count / area(nodes[0]);
            for (int slot = node.first; slot < node.first + node.count; ++slot)
                ++seen[slot];
            continue;
        }
        stats.cost += area(node) / area(nodes[0]);
        for (int child = node.first; child < node.first + 2; ++child) {
            const BvhNode& c = nodes[child];
            stats.bad += c.lower.x < node.lower.x || c.lower.y < node.lower.y || c.lower.z < node.lower.z ||
                         c.upper.x > node.upper.x || c.upper.y > node.upper.y || c.upper.z > node.upper.z;
            todo.push_back({child, depth + 1});
        }
    }
    for (int s : seen)
        stats.bad += s != 1;
    return stats;
}

int main()
{
    const Mesh mesh = build_rock_mesh(16, 0.05, 7u);
    const TreeStats sah = walk(mesh.nodes, mesh.num_tris, MESH_LEAF_SIZE);
    std::vector<float3> lowers(mesh.num_tris), uppers(mesh.num_tris);
    for (int t = 0; t < mesh.num_tris; ++t)
        for (int c = 0; c < 3; ++c) {
            const float3 p = mesh.points[mesh.indices[3 * t + c]];
            lowers[t] = c ? make_float3(std::min(lowers[t].x, p.x), std::min(lowers[t].y, p.y), std::min(lowers[t].z, p.z)) : p;
            uppers[t] = c ? make_float3(std::max(uppers[t].x, p.x), std::max(uppers[t].y, p.y), std::max(uppers[t].z, p.z)) : p;
        }
    std::vector<BvhNode> nodes(1);
    std::vector<int> order(mesh.num_tris);
    for (int t = 0; t < mesh.num_tris; ++t)
        order[t] = t;
    build_bvh_node(nodes, 0, order, 0, mesh.num_tris, lowers, uppers, MESH_LEAF_SIZE, median_split);
    const TreeStats median = walk(nodes.data(), mesh.num_tris, MESH_LEAF_SIZE);
    printf("{\"tris\": %d, \"bad\": %d, \"depth\": %d, \"leaves\": %d, \"cost\": %.6f, \"median_bad\": %d, "
           "\"median_cost\": %.6f, \"stack\": %d}\n", mesh.num_tris, sah.bad, sah.depth, sah.leaves, sah.cost,
           median.bad, median.cost, BVH_STACK_SIZE);
    return 0;
}
'''


def test_the_mesh_bvh_is_split_by_surface_area(tmp_path):
    """main() builds the rock's BVH by the surface area heuristic: a valid tree (each triangle in one
    leaf, each child's box inside its parent's, within the queries' stacks) whose expected cost for a
    ray is well below the median split's over the same triangles (the split a ray-cast image ran
    0.6-0.8x Warp with; 0.86-1.0x with this one on an H200)."""
    folder, cu = write(tmp_path, "render_depth", None)
    program = tmp_path / "tree.cu"
    program.write_text(cu[:cu.index("int main(")] + TREE_MAIN)
    build = compile_host(program, tmp_path / "tree", tmp_path)
    assert build.returncode == 0, build.stderr[-2000:]
    stats = json.loads(subprocess.run([str(tmp_path / "tree")], capture_output=True, text=True, check=True).stdout)
    assert stats["tris"] == rock_triangle_count(16)
    assert stats["bad"] == 0 and stats["median_bad"] == 0
    assert stats["leaves"] == stats["tris"]  # leaves of one triangle (MESH_LEAF_SIZE)
    assert stats["depth"] + 1 <= stats["stack"]
    assert stats["cost"] < 0.9 * stats["median_cost"], stats  # 0.84 for this rock
