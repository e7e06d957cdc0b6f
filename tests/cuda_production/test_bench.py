"""The bench size and scaling rule (bench.py), and the .cu's --bench mode run on the CPU by host
emulation at a small bench size: it parses, sizes agree with bench.py, bytes follow the rule, and
its bench-size results equal Warp's on the same scaled inputs. No timings are asserted."""
from __future__ import annotations

import json
from dataclasses import replace
import subprocess
from math import prod

import numpy as np
import pytest

from cuda_production.bench import (BYTE_RULE, MAX_GRID_YZ, MAX_THREADS, MIN_THREADS, bench_args, bench_launch_dim,
                                   bench_metadata, bench_shape, block_shape, bytes_moved, max_outer, pinned_launch,
                                   scale_factor, scales)
from cuda_production.host_check import compile_host
from cuda_production.reference import input_seed, sample_args, warp_reference
from cuda_production.sample import write_sample
from cuda_production.templates import Tolerance
from cuda_production.translator import translate_kernel
from synthesis.spec import ArgSpec, KernelSpec
from tests.cuda_production.harness import arr, scal, spec

SOURCE = '''
@wp.kernel
def bench_mix(x: wp.array(dtype=float), table: wp.array2d(dtype=float), rows: wp.array2d(dtype=float),
              idx: wp.array(dtype=int), hist: wp.array(dtype=float), lo: wp.array(dtype=float),
              scale: float, out: wp.array(dtype=float)):
    tid = wp.tid()
    v = x[tid] * scale + table[tid % 5, 1] + rows[tid, 2]
    wp.atomic_add(hist, idx[tid], v)
    wp.atomic_min(lo, tid % 3, v)
    out[tid] = v
'''

CHECK_DIM = (64,)
BENCH_OUTER = 96  # a small bench size, so the emulated run stays fast


def mixed_args() -> list:
    return [arr("x"), arr("table", shape=(5, 2)), arr("rows", shape=(64, 3)), arr("idx", "int32", "index", high=7),
            arr("hist", role="output", shape=(8,), bound=256.0), arr("lo", role="inout", shape=(3,), bound=8.0),
            scal("scale", "float32", 0.5), arr("out", role="output", bound=8.0)]


@pytest.fixture(scope="module")
def bench_sample(tmp_path_factory):
    """The sample written and its --bench run under host emulation, at bench size BENCH_OUTER."""
    s = spec("bench_mix", SOURCE, mixed_args(), CHECK_DIM)
    folder = tmp_path_factory.mktemp("bench") / s.name
    kernel = translate_kernel(s.source, s.name, f"{s.name}.py")
    write_sample(folder, kernel, s.source, sample_args(s), s.dim, input_seed(s), Tolerance(), None,
                 {"category": s.category, "description": s.description})
    binary = folder.parent / "bench_mix.bin"
    build = compile_host(folder / "bench_mix.cu", binary, folder.parent)
    assert build.returncode == 0, build.stderr
    dump = folder.parent / "bench_results.bin"
    run = subprocess.run([str(binary), "--bench", "--bench-dim", str(BENCH_OUTER), "--launches", "2", "--warmup", "0",
                          "--trials", "3", "--dump", str(dump)], cwd=folder, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    line = next(x for x in run.stdout.splitlines() if x.startswith("{"))
    return s, folder, json.loads(line), dump.read_bytes(), binary


@pytest.mark.parametrize("launch_dim", [(64,), (1000,), (16, 20), (8, 4, 8), (24, 16), (3, 3, 3)])
def test_bench_launch_grows_only_the_outer_dimension_into_the_thread_range(launch_dim):
    args = [arr("a", shape=launch_dim), arr("b", role="output", shape=launch_dim)]
    dim = bench_launch_dim(args, launch_dim)
    assert dim[1:] == launch_dim[1:]
    assert prod(dim) <= MAX_THREADS + prod(launch_dim[1:])
    assert prod(dim) >= MIN_THREADS or dim[0] == max_outer(launch_dim)


@pytest.mark.parametrize("launch_dim", [(16, 20), (12, 8), (24, 32), (8, 5), (8, 4, 8)])
def test_bench_grid_stays_within_cudas_limits(launch_dim):
    block = block_shape(launch_dim)
    dim = bench_launch_dim([arr("a", shape=launch_dim)], launch_dim)
    assert 128 <= prod(block) <= 256 and prod(block) % 32 == 0  # whole warps
    assert -(-dim[0] // block[-1]) <= MAX_GRID_YZ  # the outermost dimension rides grid.y or grid.z


@pytest.mark.parametrize("launch_dim", [(2, 16, 32, 32), (4, 3, 8, 8), (2, 64, 16, 16), (1, 4, 5, 6), (2, 8, 8, 16)])
def test_a_4d_launch_fills_its_block_with_image_planes_within_cudas_grid(launch_dim):
    """(n, c, y, x): the block spans rows and columns, and as many (n, c) planes along z as fill 256
    threads (small images too); the grid's z counts the planes, at most 65,535 blocks of them at bench size."""
    block = block_shape(launch_dim)
    dim = bench_launch_dim([arr("a", shape=launch_dim), arr("b", role="output", shape=launch_dim)], launch_dim)
    assert len(block) == 3 and block[2] <= 64 and prod(block) <= 256
    assert prod(block) > 256 - prod(launch_dim[2:]) or block[2] == 64  # full, but for less than a plane
    assert dim[1:] == launch_dim[1:] and -(-dim[0] * dim[1] // block[2]) <= MAX_GRID_YZ
    assert prod(dim) >= MIN_THREADS or dim[0] == max_outer(launch_dim)


@pytest.mark.parametrize("inner", [8, 16, 20, 32, 5])
def test_a_2d_block_leaves_at_most_a_fifth_of_its_row_idle(inner):
    x = block_shape((4, inner))[0]
    assert inner / (-(-inner // x) * x) >= 0.8


@pytest.mark.parametrize("inner", [20, 24, 12, 10, 6, 5, 3])
def test_a_2d_row_shorter_than_a_warp_is_spanned_by_the_block(inner):
    """Rows of a length not a power of two: x is the row (no thread past it), and the block holds whole
    warps, so a warp reads consecutive elements across rows, as Warp's flat launch does."""
    x, y = block_shape((4, inner))
    assert x == inner and x * y % 32 == 0 and 128 <= x * y <= 256


@pytest.mark.parametrize("inner", [(10, 4), (3, 5), (6, 12), (16, 2)])
def test_a_3d_block_fits_small_inner_extents(inner):
    block = block_shape((4,) + inner)
    for extent, size in zip(inner[::-1], block):
        assert extent / (-(-extent // size) * size) >= 0.8
    assert prod(block) <= 256 and block[2] <= 64


def test_small_inner_extents_get_a_block_of_their_exact_shape():
    assert block_shape((4, 5, 6)) == (6, 5, 8)  # consecutive threads, consecutive elements
    assert block_shape((4, 1, 1)) == (1, 1, 64)  # blockDim.z stays within CUDA's 64


def test_a_3d_launch_that_fills_8_by_8_keeps_the_8_8_4_block():
    assert block_shape((4, 16, 8)) == (8, 8, 4)


def test_many_bytes_per_thread_give_fewer_threads():
    light = [arr("a"), arr("b", role="output")]
    heavy = [arr("m", "mat44"), arr("n", "mat44", role="output")]
    assert prod(bench_launch_dim(heavy, CHECK_DIM)) < prod(bench_launch_dim(light, CHECK_DIM))


def test_arrays_shaped_like_the_launch_scale_and_the_others_keep_their_size():
    sized = {a.name: a for a in bench_args(mixed_args(), CHECK_DIM, (BENCH_OUTER,))}
    assert sized["x"].shape == (BENCH_OUTER,)
    assert sized["rows"].shape == (BENCH_OUTER, 3)
    assert sized["idx"].shape == (BENCH_OUTER,) and sized["idx"].high == 7  # index range stays valid
    assert sized["table"].shape == (5, 2)
    assert sized["hist"].shape == (8,) and sized["lo"].shape == (3,)
    assert not scales(sized["table"], CHECK_DIM)


def test_byte_rule_counts_each_read_and_each_written_array_once_in_full():
    sized = bench_args(mixed_args(), CHECK_DIM, (BENCH_OUTER,))
    n = BENCH_OUTER
    read = 4 * (n + 5 * 2 + n * 3 + n + 3)  # x, table, rows, idx, lo (inout)
    written = 4 * (8 + 3 + n)  # hist, lo (inout), out
    assert bytes_moved(sized) == (read, written)


def test_metadata_describes_the_bench_size_and_the_byte_rule():
    meta = bench_metadata(mixed_args(), CHECK_DIM)
    sized = bench_args(mixed_args(), CHECK_DIM, tuple(meta["launch_dim"]))
    assert (meta["bytes_read"], meta["bytes_written"]) == bytes_moved(sized)
    assert meta["arrays"]["rows"] == {"scales": True, "shape": [meta["launch_dim"][0], 3]}
    assert meta["arrays"]["table"] == {"scales": False, "shape": [5, 2]}
    assert meta["byte_rule"] == BYTE_RULE


def test_bench_line_reports_the_bench_size_and_bytes_by_the_rule(bench_sample):
    s, _, bench, _, _ = bench_sample
    read, written = bytes_moved(bench_args(list(s.args), CHECK_DIM, (BENCH_OUTER,)))
    assert bench["launch_dim"] == [BENCH_OUTER]
    assert (bench["bytes_read"], bench["bytes_written"]) == (read, written)
    assert bench["trials"] == 3 and bench["launches"] == 2
    assert bench["min_us"] <= bench["median_us"] <= bench["p95_us"]


def test_bench_results_equal_warp_at_the_bench_size(bench_sample):
    s, _, _, dump, _ = bench_sample
    scaled = KernelSpec(s.name, s.category, s.description, s.source,
                        tuple(bench_args(list(s.args), CHECK_DIM, (BENCH_OUTER,))), (BENCH_OUTER,), s.seed)
    want = np.frombuffer(warp_reference([scaled], "bench_ref")[s.name], dtype=np.float32)
    got = np.frombuffer(dump, dtype=np.float32)
    assert got.size == 8 + 3 + BENCH_OUTER
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("options", [["--bench", "--bench-dim", "0"], ["--bench", "--launches", "0"], ["--benchmark"]])
def test_bad_bench_options_fail_with_one_line(bench_sample, options):
    _, folder, _, _, binary = bench_sample
    proc = subprocess.run([str(binary), *options], cwd=folder, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and proc.stdout == ""


GRID_2D = '''
@wp.kernel
def shift_2d(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float)):
    i, j = wp.tid()
    b[i, j] = a[i, j] + 1.0
'''


def test_a_bench_dim_past_the_grids_limit_is_refused_with_one_line(tmp_path):
    # a 2-D launch's outer extent lies along the grid's y (at most 65,535 blocks): past it the launch
    # itself would fail ("invalid argument"), so the program names the limit instead
    launch = (16, 20)
    s = spec("shift_2d", GRID_2D, [arr("a", shape=launch), arr("b", role="output", shape=launch, bound=2.0)], launch)
    folder = tmp_path / s.name
    write_sample(folder, translate_kernel(s.source, s.name, f"{s.name}.py", launch_ndim=2), s.source, sample_args(s),
                 s.dim, input_seed(s), Tolerance(), None, {"category": s.category, "description": s.description})
    binary = tmp_path / "shift_2d.bin"
    assert compile_host(folder / "shift_2d.cu", binary, tmp_path).returncode == 0
    limit = max_outer(launch)
    proc = subprocess.run([str(binary), "--bench", "--bench-dim", str(limit + 1)], cwd=folder, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == f"--bench-dim {limit + 1}: this launch's grid holds at most {limit} (CUDA allows 65535 blocks along y and z)\n"


def test_a_grid_of_tiles_grows_its_row_panels_and_keeps_its_weights():
    """A wp.launch_tiled grid of (7, 3) blocks of 16 x 32 output tiles: inputs and outputs hold 16 rows
    per block row and keep their columns (tile multiples of the inner launch, not equal to it);
    weights and a bias row keep their size."""
    launch = (7, 3)
    x, out = arr("x", shape=(7 * 16, 40)), arr("out", shape=(7 * 16, 3 * 32), role="output")
    weights, bias = arr("w", shape=(40, 3 * 32)), arr("bias", shape=(1, 3 * 32))
    assert [scale_factor(a, launch) for a in (x, out, weights, bias)] == [16, 16, 0, 0]
    sized = {a.name: a.shape for a in bench_args([x, out, weights, bias], launch, (70, 3))}
    assert sized == {"x": (70 * 16, 40), "out": (70 * 16, 96), "w": (40, 96), "bias": (1, 96)}


def test_an_array_of_k_rows_per_thread_grows_k_times_the_launch():
    # `adjacency[tid * K + n]` reads K entries per thread: at bench size it must hold K per bench thread
    adjacency = ArgSpec("adjacency", "int32", "index", (6 * 3000,), 0, 2999, 0)
    table = ArgSpec("table", "float32", "input", (7000,))
    assert scale_factor(adjacency, (3000,)) == 6 and scale_factor(table, (3000,)) == 0
    assert bench_shape(adjacency, (3000,), (4096,)) == (6 * 4096,)
    assert bench_shape(table, (3000,), (4096,)) == (7000,)


def test_a_bvh_of_points_keeps_its_density_and_its_launch_is_capped():
    """A BVH over a growing points array: the points' range grows by the integer cube root of their
    growth (the density of boxes per query stays), the launch stops at MESH_THREADS (its queries are
    traversals, and main() builds the tree on the host), and one int per point counts as read."""
    from cuda_production.bench import MESH_THREADS

    n = 500
    args = [ArgSpec("bvh", "uint64", "bvh", (), value=0.25, points="x"),
            ArgSpec("x", "vec3", "input", (n,), -2.0, 2.0, 6), ArgSpec("counts", "int32", "output", (n,), bound=500.0)]
    meta = bench_metadata(args, (n,))
    threads = meta["launch_dim"][0]
    assert threads == MESH_THREADS
    growth = threads // n
    scale = meta["bvhs"]["bvh"]["domain_scale"]
    assert scale ** 3 <= growth < (scale + 1) ** 3
    assert meta["bvhs"]["bvh"]["points_range"] == [-2.0 * scale, 2.0 * scale]
    assert meta["bvhs"]["bvh"]["items"] == threads and "hash_grids" not in meta
    assert meta["bytes_read"] == threads * (12 + 4) and meta["bytes_written"] == threads * 4


PADDED = '''
@wp.kernel
def padded_scale(n: int, x: wp.array(dtype=float), out: wp.array(dtype=float)):
    tid = wp.tid()
    if tid >= n:
        return
    out[tid] = x[tid] * 2.0
'''


def padded_args(n: int = 60) -> list:
    return [ArgSpec("n", "int32", "scalar", (), n, n, 0, n, launch_bound=True), arr("x"),
            arr("out", role="output", bound=8.0)]


def test_a_padded_launchs_count_keeps_its_padding_at_bench_size():
    sized = bench_args(padded_args(), CHECK_DIM, (4096,))
    assert sized[0].value == 4096 - 4 and sized[0].launch_bound
    meta = bench_metadata(padded_args(), CHECK_DIM)
    assert meta["scalars"] == {"n": meta["launch_dim"][0] - 4}
    plain = bench_args([scal("n", "int32", 60)], CHECK_DIM, (4096,))
    assert plain[0].value == 60 and "scalars" not in bench_metadata(mixed_args(), CHECK_DIM)


def bench_run_against_warp(tmp_path, s: KernelSpec) -> tuple[np.ndarray, np.ndarray]:
    """The sample's --bench results at BENCH_OUTER (host emulation) and Warp's on bench_args' inputs."""
    folder = tmp_path / s.name
    kernel = translate_kernel(s.source, s.name, f"{s.name}.py")
    write_sample(folder, kernel, s.source, sample_args(s), s.dim, input_seed(s), Tolerance(), None,
                 {"category": s.category, "description": s.description})
    binary = tmp_path / f"{s.name}.bin"
    assert compile_host(folder / f"{s.name}.cu", binary, tmp_path).returncode == 0
    dump = tmp_path / f"{s.name}.dump"
    run = subprocess.run([str(binary), "--bench", "--bench-dim", str(BENCH_OUTER), "--launches", "1", "--warmup", "0",
                          "--trials", "1", "--dump", str(dump)], cwd=folder, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    bench_dim = (BENCH_OUTER, *s.dim[1:])
    scaled = KernelSpec(s.name, s.category, s.description, s.source,
                        tuple(bench_args(list(s.args), s.dim, bench_dim)), bench_dim, s.seed)
    want = np.frombuffer(warp_reference([scaled], f"{s.name}_ref")[s.name], dtype=np.float32)
    return np.frombuffer(dump.read_bytes(), dtype=np.float32), want


def test_a_padded_launch_runs_its_grown_count_at_bench_size(tmp_path):
    # the bench must time the elements of a launch of bench size, not a launch whose threads all but
    # the check size's few return at once
    got, want = bench_run_against_warp(tmp_path, spec("padded_scale", PADDED, padded_args(), CHECK_DIM))
    assert got.size == BENCH_OUTER and np.count_nonzero(got[BENCH_OUTER - 4:]) == 0
    assert np.count_nonzero(got[:BENCH_OUTER - 4]) > BENCH_OUTER - 20  # written well past the check size's 60
    np.testing.assert_array_equal(got, want)


GATHER = '''
@wp.kernel
def gather_rows(idx: wp.array(dtype=int), x: wp.array(dtype=float), table: wp.array(dtype=float),
                bins: wp.array(dtype=int), y: wp.array(dtype=float)):
    tid = wp.tid()
    y[tid] = x[idx[tid]] + table[bins[tid]]
'''


def gather_args() -> list:
    return [arr("idx", "int32", "index", high=63), arr("x"), arr("table", shape=(8,)),
            arr("bins", "int32", "index", high=7), arr("y", role="output", bound=8.0)]


def test_indices_into_arrays_that_grow_span_them_at_bench_size_and_bins_keep_their_range():
    sized = {a.name: a for a in bench_args(gather_args(), CHECK_DIM, (4096,))}
    assert (sized["idx"].low, sized["idx"].high) == (0, 4095)  # x grows to 4,096 rows: idx spans them
    assert (sized["bins"].low, sized["bins"].high) == (0, 7)  # table keeps its 8 rows
    meta = bench_metadata(gather_args(), CHECK_DIM)
    assert meta["index_ranges"] == {"idx": [0, meta["launch_dim"][0] - 1]}


def test_an_index_range_stays_when_an_array_of_its_extent_keeps_its_size():
    # in a 32 x 4 launch, idx's 64 values could index the 1-D lookup table of 64, which does not grow
    # (an array with fewer dimensions than the launch keeps its size): they keep their range
    args = [arr("idx", "int32", "index", shape=(32, 4), high=63), arr("lut", shape=(64,)),
            arr("rows", shape=(64, 4)), arr("y", role="output", shape=(32, 4))]
    assert scales(args[2], (32, 4)) and not scales(args[1], (32, 4))
    assert bench_args(args, (32, 4), (4096, 4))[0].high == 63


def test_a_gather_reads_across_its_grown_array_at_bench_size(tmp_path):
    got, want = bench_run_against_warp(tmp_path, spec("gather_rows", GATHER, gather_args(), CHECK_DIM))
    np.testing.assert_array_equal(got, want)


PER_ROW = '''
@wp.kernel
def per_row_scale(x: wp.array2d(dtype=float), scales: wp.array(dtype=float), bias: wp.array(dtype=float),
                  y: wp.array2d(dtype=float)):
    i, j = wp.tid()
    y[i, j] = x[i, j] * scales[i] + bias[j]
'''


def per_row_args() -> list[ArgSpec]:
    # scales: one per row (declared per_row); bias: one per column, as long as the rows at check size
    return [arr("x", shape=(16, 16)), replace(arr("scales", shape=(16,)), per_row=True), arr("bias", shape=(16,)),
            arr("y", role="output", shape=(16, 16), bound=8.0)]


def test_a_launch_whose_launch_shaped_arrays_all_keep_their_size_keeps_its_size():
    """Pinned: every array shaped like the launch keeps its size (a fixed image's code holds its
    extents). One such array beside a launch-shaped array that grows (a grid of as many cells as
    points) pins nothing."""
    image = replace(arr("img", shape=(24, 16)), keeps_size=True)
    out = replace(arr("out", role="output", shape=(24, 16)), keeps_size=True)
    assert pinned_launch([image, out], (24, 16)) and bench_launch_dim([image, out], (24, 16)) == (24, 16)
    cells = replace(arr("cells", "int32", "inout", shape=(1024,)), keeps_size=True)
    points = arr("points", shape=(1024,))
    assert not pinned_launch([points, cells], (1024,))
    assert bench_launch_dim([points, cells], (1024,))[0] > 1024
    assert not pinned_launch([image, arr("out", role="output", shape=(24, 16))], (24, 16))


def test_a_value_per_row_grows_with_the_rows_and_a_value_per_column_keeps_its_size():
    sized = {a.name: a for a in bench_args(per_row_args(), (16, 16), (BENCH_OUTER, 16))}
    assert sized["scales"].shape == (BENCH_OUTER,) and sized["bias"].shape == (16,)


def test_filters_declared_to_keep_their_size_do_so_though_their_rows_are_a_multiple_of_the_batch():
    # a convolution's 8 x 4 x 3 x 3 filters under a 2 x 8 x 6 x 6 launch: 8 rows, 4 x the batch's
    launch = (2, 8, 6, 6)
    filters = arr("w", shape=(8, 4, 3, 3))
    assert scales(filters, launch)  # the shape rule alone would grow them
    sized = {a.name: a for a in bench_args([arr("x", shape=(2, 4, 6, 6)), replace(filters, keeps_size=True),
                                            arr("y", role="output", shape=launch)], launch, (64, 8, 6, 6))}
    assert sized["w"].shape == (8, 4, 3, 3) and sized["x"].shape == (64, 4, 6, 6) and sized["y"].shape == (64, 8, 6, 6)


def test_a_value_per_row_is_read_for_every_row_at_bench_size(tmp_path):
    # before ArgSpec.per_row the scales kept their 16 elements and rows 16.. read past them
    got, want = bench_run_against_warp(tmp_path, spec("per_row_scale", PER_ROW, per_row_args(), (16, 16)))
    assert got.size == BENCH_OUTER * 16
    np.testing.assert_array_equal(got, want)
