"""Hash-grid neighbour queries (`wp.HashGrid`): translated kernels, the sample's host-built grid, and
bench sizing, each checked against Warp's CPU on the host (g++ emulation of the sample's own .cu).

The .cu reproduces Warp's visiting order (cells x fastest, then y, then z; a cell's points in index
order), so sums over neighbours are bit-equal to Warp's, not merely within the tolerance: the float
samples here must report max_abs_err=0, and an order checksum must match exactly.
"""
from __future__ import annotations

import dataclasses
import json
import shutil

import numpy as np
import pytest

from cuda_production.bench import bench_args, bench_metadata, bytes_moved, domain_scale
from cuda_production.compile_cuda import find_nvcc, validate_samples
from cuda_production.host_check import run_on_host
from cuda_production.reference import input_seed, sample_args, warp_reference
from cuda_production.sample import write_sample
from cuda_production.templates import Tolerance, host_arrays
from cuda_production.translator import TranslationError, translate_kernel, translate_source
from synthesis.spec import ArgSpec, KernelSpec

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed")

N = 256  # points, one thread each


def points(name: str = "x") -> ArgSpec:
    """Positions in [-2, 2]^3 on a 1/64 grid."""
    return ArgSpec(name, "vec3", "input", (N,), -2.0, 2.0, 6)


def grid(dims=(16, 16, 16), cell_width: float = 0.5, name: str = "grid", over: str = "x") -> ArgSpec:
    return ArgSpec(name, "uint64", "hash_grid", tuple(dims), value=cell_width, points=over)


def out(name: str, dtype: str = "float32", bound: float = 64.0) -> ArgSpec:
    if dtype == "int32":
        return ArgSpec(name, dtype, "output", (N,), 0, N, 0, bound=float(N))
    return ArgSpec(name, dtype, "output", (N,), bound=bound)


def spec(name: str, source: str, args: list[ArgSpec]) -> KernelSpec:
    return KernelSpec(name, "hash_grid_test", f"test kernel {name}", source, tuple(args), (N,), seed=4242)


SPH = """
@wp.kernel
def sph_density(grid: wp.uint64, x: wp.array(dtype=wp.vec3), rho: wp.array(dtype=float), h: float):
    tid = wp.tid()
    i = wp.hash_grid_point_id(grid, tid)
    p = x[i]
    total = float(0.0)
    for j in wp.hash_grid_query(grid, p, h):
        if j == i:
            continue
        d = p - x[j]
        r2 = wp.dot(d, d)
        if r2 < h * h:
            total += (h * h - r2) * (h * h - r2)
    rho[i] = total
"""

# the grid after an array it is not built over, the query held in a local, the radius a module constant
LOCAL_QUERY = """
SMOOTHING = 0.5


@wp.kernel
def spread(v: wp.array(dtype=wp.vec3), grid: wp.uint64, x: wp.array(dtype=wp.vec3), mean_dist: wp.array(dtype=float)):
    i = wp.tid()
    p = x[i]
    total = float(0.0)
    count = int(0)
    neighbors = wp.hash_grid_query(grid, p, SMOOTHING)
    for j in neighbors:
        r = wp.length(p - x[j]) + wp.length(v[j])
        total += wp.min(r, 2.0)
        count += 1
    mean_dist[i] = total / float(wp.max(count, 1))
"""

# Warp's DEM example: the query advanced by hash_grid_query_next in a while condition, a literal radius
WHILE_NEXT = """
@wp.kernel
def contacts(grid: wp.uint64, x: wp.array(dtype=wp.vec3), force: wp.array(dtype=wp.vec3),
             touching: wp.array(dtype=int)):
    tid = wp.tid()
    i = wp.hash_grid_point_id(grid, tid)
    p = x[i]
    f = wp.vec3(0.0, 0.0, 0.0)
    n = int(0)
    query = wp.hash_grid_query(grid, p, 0.5)
    index = int(0)
    while wp.hash_grid_query_next(query, index):
        if index != i:
            d = p - x[index]
            dist = wp.length(d)
            if dist < 0.5:
                f = f + wp.normalize(d) * (0.5 - dist)
                n += 1
    force[i] = f
    touching[i] = n
"""

# The order every point is visited in, as an exact integer: a wrong cell order or a wrong order within
# a cell changes it.
ORDER = """
@wp.kernel
def visit_order(grid: wp.uint64, x: wp.array(dtype=wp.vec3), order: wp.array(dtype=int)):
    i = wp.tid()
    code = int(0)
    for j in wp.hash_grid_query(grid, x[i], 0.5):
        code = (code * 7 + j) % 1000003
    order[i] = code
"""

# A radius spanning more cells than the grid has per axis: the query visits each cell once
# (hash_grid_query_end), so every point counts every point exactly once.
WIDE = """
@wp.kernel
def wide_count(grid: wp.uint64, x: wp.array(dtype=wp.vec3), radius: float, count: wp.array(dtype=int)):
    i = wp.tid()
    n = int(0)
    for j in wp.hash_grid_query(grid, x[i], radius):
        n += 1
    count[i] = n
"""

SPECS = {
    "sph_density": spec("sph_density", SPH, [grid(), points(), out("rho"), ArgSpec("h", "float32", "scalar", value=0.5)]),
    "spread": spec("spread", LOCAL_QUERY, [points("v"), grid((8, 8, 8)), points(), out("mean_dist", bound=4.0)]),
    "contacts": spec("contacts", WHILE_NEXT, [grid(), points(), ArgSpec("force", "vec3", "output", (N,), bound=16.0),
                                              out("touching", "int32")]),
    "visit_order": spec("visit_order", ORDER, [grid(), points(), out("order", "int32")]),
    "wide_count": spec("wide_count", WIDE, [grid((4, 4, 4)), points(), ArgSpec("radius", "float32", "scalar", value=2.0),
                                            out("count", "int32")]),
}


@pytest.fixture(scope="module")
def expected() -> dict[str, bytes]:
    """Warp's CPU values of every kernel, in one module (one CPU build)."""
    return warp_reference(list(SPECS.values()), "t_hash_grid")


def write(tmp_path, s: KernelSpec, expected: bytes | None):
    kernel = translate_kernel(s.source, s.name, f"{s.name}.py")
    folder = write_sample(tmp_path / s.name, kernel, s.source, sample_args(s), s.dim, input_seed(s), Tolerance(),
                          expected, {"category": s.category, "description": s.description})
    return folder, (folder / f"{s.name}.cu").read_text()


@pytest.mark.parametrize("name", ["sph_density", "spread", "contacts"])
def test_each_loop_form_equals_warp_bit_for_bit(tmp_path, expected, name):
    folder, cu = write(tmp_path, SPECS[name], expected[name])
    assert "struct HashGrid" in cu and "build_hash_grid(" in cu and "while (hash_grid_query_next(" in cu
    run = run_on_host(folder)
    assert run.passed, run.output[-2000:]
    assert "max_abs_err=0 " in run.output, run.output[-500:]  # the same order: the same roundings


def test_the_three_forms_are_translated_as_written():
    kernels = {n: translate_kernel(SPECS[n].source, n).kernel_code for n in ("sph_density", "spread", "contacts")}
    # `for j in wp.hash_grid_query(...)`: the query in a local of its own, `continue` inside the while
    assert "HashGridQuery query0 = hash_grid_query(grid, p, h);" in kernels["sph_density"]
    assert "int i = hash_grid_point_id(grid, tid);" in kernels["sph_density"]
    assert "continue;" in kernels["sph_density"]
    # `for j in neighbors`: the user's local advanced in place
    assert "HashGridQuery neighbors = hash_grid_query(grid, p, SMOOTHING);" in kernels["spread"]
    assert "while (hash_grid_query_next(neighbors, j)) {" in kernels["spread"]
    # the while form as written, the index an int local
    assert "int index = 0;" in kernels["contacts"] and "while (hash_grid_query_next(query, index)) {" in kernels["contacts"]
    assert "__global__ void contacts(\n    HashGrid grid,\n" in kernels["contacts"]  # by value


def test_points_are_visited_in_warps_order(tmp_path, expected):
    folder, _ = write(tmp_path, SPECS["visit_order"], expected["visit_order"])
    run = run_on_host(folder)
    assert run.passed, run.output[-2000:]
    codes = np.frombuffer(expected["visit_order"], dtype=np.int32)
    assert len(np.unique(codes)) > N // 2  # the checksum tells the points' neighbourhoods apart


def test_a_radius_wider_than_the_grid_visits_each_cell_once(tmp_path, expected):
    counts = np.frombuffer(expected["wide_count"], dtype=np.int32)
    assert (counts == N).all()  # Warp: every point of the 4 x 4 x 4 grid, once
    folder, _ = write(tmp_path, SPECS["wide_count"], expected["wide_count"])
    run = run_on_host(folder)
    assert run.passed, run.output[-2000:]


def test_a_grid_takes_no_hashed_input_position():
    """The arrays around a grid hash as if it were not there, as the reference builds them (`spread`:
    v, grid, x, mean_dist; its sample equals Warp above)."""
    s = SPECS["spread"]
    kernel = translate_kernel(s.source, s.name)
    assert {h.label: h.position for h in host_arrays(kernel, list(s.args))} == {"v": 0, "x": 1, "mean_dist": 2}


REFUSED = {
    "not_a_grid": ("""
@wp.kernel
def not_a_grid(volume: wp.uint64, x: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    tid = wp.tid()
    out[tid] = wp.volume_sample_f(volume, x[tid], wp.Volume.LINEAR)
""", "wp.uint64 parameter 'volume' used other than as the grid of wp.hash_grid_query"),
    "unused_id": ("""
@wp.kernel
def unused_id(seed: wp.uint64, out: wp.array(dtype=float)):
    tid = wp.tid()
    out[tid] = 1.0
""", "wp.uint64 parameter 'seed' that is no hash grid's, mesh's or BVH's id"),
    "passed_on": ("""
@wp.func
def first(grid: wp.uint64, i: int) -> int:
    return wp.hash_grid_point_id(grid, i)


@wp.kernel
def passed_on(grid: wp.uint64, out: wp.array(dtype=int)):
    tid = wp.tid()
    out[tid] = first(grid, tid)
""", "wp.uint64 parameter 'grid' used other than as the grid"),
    "grouped": ("""
@wp.kernel
def grouped(grid: wp.uint64, x: wp.array(dtype=wp.vec3), out: wp.array(dtype=int)):
    tid = wp.tid()
    for j in wp.hash_grid_query(grid, x[tid], 1.0, 3):
        out[tid] = j
""", "wp.hash_grid_query with a group (4 arguments)"),
    "index_not_a_local": ("""
@wp.kernel
def index_not_a_local(grid: wp.uint64, x: wp.array(dtype=wp.vec3), out: wp.array(dtype=int)):
    tid = wp.tid()
    q = wp.hash_grid_query(grid, x[tid], 1.0)
    while wp.hash_grid_query_next(q, out[tid]):
        pass
""", "wp.hash_grid_query_next writes its argument 'out[tid]': it must be a local variable"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_uint64_parameters_other_than_hash_grids_are_refused(name):
    source, message = REFUSED[name]
    result = translate_source(source, f"{name}.py")[name]
    assert isinstance(result, TranslationError), result
    assert "unsupported" in str(result) and message in str(result), str(result)


@pytest.mark.skipif(find_nvcc() is None, reason="nvcc not installed")
def test_the_samples_compile_with_nvcc(tmp_path):
    items = []
    for name in ("sph_density", "spread", "contacts", "wide_count"):
        folder, _ = write(tmp_path, SPECS[name], None)
        items.append((folder / f"{name}.cu", name))
    results = validate_samples(items)
    assert [r.status for r in results] == ["ok"] * len(items), [r.log for r in results]


def test_bench_size_keeps_the_density_and_equals_warp_there(tmp_path):
    """At --bench the points' domain and the grid's cells grow with the cube root of the points'
    growth (bench.py), in the .cu exactly as bench_args says: the bench-size results equal Warp's
    CPU on bench_args' inputs, and the bytes it reports are bench_metadata's rule."""
    s = SPECS["contacts"]
    outer = 16 * N  # 16x the points: s = 2 (the integer cube root)
    sized = bench_args(list(s.args), s.dim, (outer,))
    by_name = {a.name: a for a in sized}
    assert by_name["grid"].shape == (32, 32, 32) and (by_name["x"].low, by_name["x"].high) == (-4.0, 4.0)
    want = warp_reference([dataclasses.replace(s, args=tuple(sized), dim=(outer,))], "t_hash_grid_bench")[s.name]
    folder, _ = write(tmp_path, s, None)
    dump = tmp_path / "bench.bin"
    run = run_on_host(folder, run_args=("--bench", "--bench-dim", str(outer), "--dump", str(dump),
                                        "--warmup", "0", "--trials", "1", "--launches", "1"))
    assert run.returncode == 0, run.output[-2000:]
    assert dump.read_bytes() == want
    line = json.loads(next(l for l in run.output.splitlines() if l.startswith("{")))
    assert (line["bytes_read"], line["bytes_written"]) == bytes_moved(sized) == (outer * (12 + 4), outer * (12 + 4))


def test_bench_metadata_grows_the_domain_by_the_cube_root_and_caps_the_grid():
    assert [domain_scale(g) for g in (1, 7, 8, 26, 27, 16384)] == [1, 1, 2, 2, 3, 25]
    s = SPECS["sph_density"]
    meta = bench_metadata(list(s.args), s.dim)
    outer = meta["launch_dim"][0]
    scale = domain_scale(outer // N)
    assert meta["hash_grids"]["grid"] == {"points": "x", "domain_scale": scale, "shape": [256, 256, 256],
                                          "points_range": [-2.0 * scale, 2.0 * scale]}
    # points per unit volume stay within (1 + 1/s)^3 of the check size's
    density = outer / (4.0 * scale) ** 3, N / 4.0 ** 3
    assert 1.0 <= density[0] / density[1] <= (1 + 1 / scale) ** 3
    assert meta["bytes_read"] == outer * (12 + 4)  # x, and the grid's point_ids


def test_the_translate_cli_builds_a_users_grid_over_the_array_its_queries_are_centred_on(tmp_path_factory):
    """Positions and velocities are both read at the neighbours' indices: the grid's points are the array
    the query is centred on (`x = pos[i]`, queried at x). 32^3 cells 0.25 wide unless declared; equal to
    Warp's own grid over the same points."""
    from tests.cuda_production.harness import translate_checked

    source = '''import warp as wp

@wp.kernel
def relative_speed(grid: wp.uint64, vel: wp.array(dtype=wp.vec3), pos: wp.array(dtype=wp.vec3), r: float,
                   out: wp.array(dtype=float)):
    tid = wp.tid()
    i = wp.hash_grid_point_id(grid, tid)
    x = pos[i]
    total = float(0.0)
    for j in wp.hash_grid_query(grid, x, r):
        if wp.length(x - pos[j]) < r:
            total += wp.length(vel[i] - vel[j])
    out[i] = total
'''
    code, _, err, out = translate_checked(tmp_path_factory, "user_grid", source)
    assert code == 0, err
    meta = json.loads((out / "relative_speed" / "metadata.json").read_text())
    grid_arg = next(a for a in meta["arguments"] if a["role"] == "hash_grid")
    assert (grid_arg["points"], grid_arg["shape"], grid_arg["value"]) == ("pos", [32, 32, 32], 0.25)


def test_a_declared_grid_over_a_non_vec3_array_is_one_line_naming_it(tmp_path, capsys):
    from cuda_production.translate import translate_file

    source = tmp_path / "user.py"
    source.write_text('''import warp as wp

# translate: grid points=out
@wp.kernel
def count(grid: wp.uint64, pos: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    tid = wp.tid()
    for j in wp.hash_grid_query(grid, pos[tid], 0.5):
        out[tid] += 1.0
''')
    code = translate_file(source, tmp_path / "out")
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert code == 2 and len(err) == 1, err
    assert "parameter 'grid'" in err[0] and "points 'out' is not a vec3 input array of kernel 'count'" in err[0]
