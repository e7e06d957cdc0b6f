"""Tiles (cuda_production/tiles.py): each supported tile builtin translated and proven equal to Warp
on the CPU (Warp's CPU blocks at the same block_dim vs the .cu under host emulation), the refusal of
an unsupported one, how block_dim is found, and the emulator's block barrier.

One translate run (`--reference --check`) covers every kernel below: one Warp build, one g++ build
per kernel."""
from __future__ import annotations

import ast
import json
import re
import shutil

import numpy as np
import pytest

from cuda_production.host_check import run_on_host
from cuda_production.reference import make_input
from cuda_production.translator import TranslationError, translate_kernel, translate_source
from synthesis.spec import ArgSpec
from tests.cuda_production.harness import translate_checked

TILE_KERNELS = '''import warp as wp

TILE = 8
BLOCK = 32
LANES = 64


@wp.func
def halve(x: float) -> float:
    return 0.5 * x


@wp.kernel
def scale_tiles(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    ta = wp.tile_load(a, shape=(TILE, TILE), offset=(i * TILE, j * TILE))
    tb = wp.tile_load(b, shape=(TILE, TILE), offset=(i * TILE, j * TILE), storage="shared")
    low = wp.tile_map(wp.min, -ta, tb / 2.0)
    wp.tile_store(out, ta * 2.0 - tb + ta * tb + low, offset=(i * TILE, j * TILE))


# translate: dim=2,2
# translate: A shape=16,32
# translate: B shape=32,16
@wp.kernel
def gemm(A: wp.array2d(dtype=float), B: wp.array2d(dtype=float), C: wp.array2d(dtype=float)):
    i, j = wp.tid()
    acc = wp.tile_zeros(shape=(TILE, TILE), dtype=wp.float32)
    for k in range(A.shape[1] // TILE):
        a = wp.tile_load(A, shape=(TILE, TILE), offset=(i * TILE, k * TILE))
        b = wp.tile_load(B, shape=(TILE, TILE), offset=(k * TILE, j * TILE))
        wp.tile_matmul(a, b, acc)
    wp.tile_store(C, acc, offset=(i * TILE, j * TILE))


@wp.kernel
def reshape(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), out: wp.array2d(dtype=float),
            rows: wp.array2d(dtype=float), flat: wp.array(dtype=wp.vec3), flat_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    wp.tile_store(flat_out, wp.tile_load(flat, shape=4, offset=i * 4) * 0.5, offset=i * 4)
    ta = wp.tile_load(a, shape=(4, 8), offset=(i * 4, 0))
    tb = wp.tile_load(b, shape=(8, 4))
    wp.tile_store(out, wp.tile_transpose(wp.tile_matmul(ta, tb)), offset=(0, i * 4))
    row = wp.tile_load(a, shape=(1, 8), offset=(i, 0))
    wide = wp.tile_broadcast(row, shape=(4, 8))
    wp.tile_store(rows, wp.tile_map(halve, wp.tile_map(wp.abs, wide)), offset=(i * 4, 0))


@wp.kernel
def block_stats(x: wp.array(dtype=float), flags: wp.array(dtype=int), total: wp.array(dtype=float),
                hits: wp.array(dtype=int), y: wp.array(dtype=float)):
    i = wp.tid()
    v = x[i]
    wp.tile_atomic_add(total, wp.tile_sum(wp.tile(v * v)))
    flag = flags[i]
    ones = wp.tile_ones(shape=(LANES,), dtype=int)
    wp.tile_atomic_add(hits, wp.tile_sum(wp.tile(flag) * ones))
    t = wp.tile(v)
    first = t[0]
    y[i] = wp.untile(t * 3.0) - first


@wp.kernel
def mixed_precision(a: wp.array2d(dtype=float), b: wp.array2d(dtype=wp.float16), c: wp.array2d(dtype=wp.float64),
                    total: wp.array(dtype=wp.float64)):
    i = wp.tid()
    acc = wp.tile_zeros(shape=(4, 4), dtype=wp.float64)
    wp.tile_matmul(wp.tile_load(a, shape=(4, 8), offset=(i * 4, 0)), wp.tile_load(b, shape=(8, 4)), acc)
    wp.tile_store(c, acc, offset=(i * 4, 0))
    wp.tile_atomic_add(total, wp.tile_sum(acc))


@wp.kernel
def half_layer(x: wp.array2d(dtype=wp.float16), w: wp.array2d(dtype=wp.float16), y: wp.array2d(dtype=wp.float16),
               widened: wp.array2d(dtype=float)):
    i = wp.tid()
    acc = wp.tile_zeros(shape=(4, 8), dtype=float)
    xt = wp.tile_load(x, shape=(4, 8), offset=(i * 4, 0))
    wp.tile_matmul(xt, wp.tile_load(w, shape=(8, 8)), acc)
    wp.tile_store(y, wp.tile_astype(acc, wp.float16), offset=(i * 4, 0))
    wp.tile_store(widened, wp.tile_astype(xt, wp.float32) * 2.0, offset=(i * 4, 0))


# translate: dim=4
# translate: a shape=16,8
# translate: cols shape=8
# translate: rows shape=16
# translate: peaks shape=4
# translate: lows shape=4
# translate: counts shape=16,8
# translate: top shape=4
@wp.kernel
def panel_stats(a: wp.array2d(dtype=float), cols: wp.array(dtype=float), rows: wp.array(dtype=float),
                peaks: wp.array(dtype=float), lows: wp.array(dtype=float), counts: wp.array2d(dtype=int),
                top: wp.array(dtype=int)):
    i = wp.tid()
    t = wp.tile_load(a, shape=(4, 8), offset=(i * 4, 0))
    wp.tile_atomic_add(cols, wp.tile_sum(t, axis=0))
    wp.tile_store(rows, wp.tile_sum(wp.tile_map(wp.abs, t), axis=1), offset=i * 4)
    wp.tile_store(peaks, wp.tile_max(t), offset=i)
    wp.tile_store(lows, wp.tile_min(t * 2.0), offset=i)
    c = wp.tile_load(counts, shape=(4, 8), offset=(i * 4, 0))
    wp.tile_store(top, wp.tile_max(c), offset=i)


# translate: sums shape=4,8
# translate: total shape=1,8
@wp.kernel
def column_sums(a: wp.array2d(dtype=float), sums: wp.array2d(dtype=float), total: wp.array2d(dtype=float)):
    i = wp.tid()
    ones = wp.tile_ones(shape=(1, 8), dtype=float)
    t = wp.tile_load(a, shape=(8, 8), offset=(i * 8, 0))
    col = wp.tile_matmul(ones, t)
    wp.tile_store(sums, col, offset=(i, 0))
    wp.tile_atomic_add(total, col)


# translate: partials shape=4
# translate: accum shape=1
@wp.kernel
def mean_square(values: wp.array(dtype=float), partials: wp.array(dtype=float), accum: wp.array(dtype=float)):
    i = wp.tid()
    v = wp.tile_load(values, shape=64, offset=i * 64)
    s = wp.tile_sum(v * v) / 64.0
    wp.tile_store(partials, s, offset=i)
    wp.tile_atomic_add(accum, s)


def launch(a, b, c, d, x, f, t, h, y):
    wp.launch_tiled(scale_tiles, dim=[2, 3], inputs=[a, b, c], block_dim=BLOCK)
    wp.launch_tiled(gemm, dim=[2, 2], inputs=[a, b, c], block_dim=64)
    wp.launch_tiled(reshape, dim=3, inputs=[a, b, c, d, f, h], block_dim=BLOCK)
    wp.launch(block_stats, dim=256, inputs=[x, f, t, h, y], block_dim=LANES)
    wp.launch_tiled(mixed_precision, dim=4, inputs=[a, b, c, t], block_dim=BLOCK)
    wp.launch_tiled(panel_stats, dim=4, inputs=[a, x, y, t, t, h, h], block_dim=BLOCK)
    wp.launch_tiled(column_sums, dim=4, inputs=[a, b, c], block_dim=BLOCK)
    wp.launch_tiled(mean_square, dim=4, inputs=[x, f, t], block_dim=BLOCK)
'''
# scale_tiles: tile_load/store, element-wise arithmetic, negation, tile_map of two tiles; gemm: tile_zeros, tile_matmul(a, b, out) in a loop;
# reshape: tile_matmul(a, b), tile_transpose, tile_broadcast, tile_map (wp builtin and @wp.func), 1-D vec3 tiles;
# block_stats (wp.launch): tile(x), tile_sum, tile_atomic_add, tile_ones, int tiles, tile elements, untile
# mixed_precision: float32 @ float16 accumulated in a float64 tile (Warp's rule: out's type), float64 tile_sum
# half_layer: float16 @ float16 into a float32 tile, tile_astype to half and from half
# panel_stats: tile_sum along axis 0 and 1, tile_max / tile_min of float and int tiles
# column_sums: a product with a ones row, a one-row tile stored and atomically added
# mean_square: a one-element tile in registers, stored and atomically added (g++ once took its register for
# uninitialised: the host check's error)
KERNELS = ("scale_tiles", "gemm", "reshape", "block_stats", "mixed_precision", "half_layer", "panel_stats",
           "column_sums", "mean_square")


@pytest.fixture(scope="module")
def tile_run(tmp_path_factory):
    return translate_checked(tmp_path_factory, "tiles", TILE_KERNELS)


def verdict(run, kernel: str) -> str:
    _, out, err, _ = run
    return next((line for line in out.splitlines() if line.startswith(f"{kernel}:")), f"no line for {kernel}: {err}")


@pytest.mark.parametrize("kernel", KERNELS)
def test_tile_kernel_equals_warp_on_the_cpu(tile_run, kernel):
    line = verdict(tile_run, kernel)
    assert line.endswith("equal to Warp (host emulation)") and "NOT" not in line, line


def test_every_tile_kernel_is_translated(tile_run):
    code, _, err, _ = tile_run
    assert code == 0, err


def test_a_ones_row_and_a_one_row_tile_are_written_as_a_person_would(tile_run):
    # no `1.0f *` factor, no row index that is always 0, no index computed and never read
    code = (tile_run[3] / "column_sums" / "column_sums.cu").read_text()
    body = code[code.index("__global__"):code.index("// Host side")]
    assert "1.0f *" not in body
    assert not re.search(r"const int row\d* = e\d+ / 8;", body)
    assert re.search(r"atomicAdd\(&total\[e\d+\], col\[e\d+\]\)", body), body
    declared = re.findall(r"const int (\w+) =", body)
    assert all(len(re.findall(rf"\b{name}\b", body)) > 1 for name in declared), declared


def test_a_tile_cast_is_the_scalar_cast_applied_where_the_element_is_stored(tile_run):
    code = (tile_run[3] / "half_layer" / "half_layer.cu").read_text()
    body = code[code.index("__global__"):code.index("// Host side")]
    assert re.search(r"y\[\w+ \* y_dim1 \+ \w+\] = __float2half\(acc\[e\d+\]\);", body), body
    assert re.search(r"= __half2float\(xt\[e\d+\]\) \* 2\.0f;", body), body
    assert "(float)" not in body  # a half converts through __half2float alone


def test_gemm_reference_is_the_matrix_product(tile_run):
    """The tiled loop really multiplies (the check above compares against these values)."""
    out = tile_run[3] / "gemm"
    meta = json.loads((out / "metadata.json").read_text())
    args = [ArgSpec.from_dict(a) for a in meta["arguments"]]
    a = make_input(args[0], 0, meta["input_seed"]).reshape(args[0].shape)
    b = make_input(args[1], 1, meta["input_seed"]).reshape(args[1].shape)
    got = np.frombuffer((out / "expected.bin").read_bytes(), dtype=np.float32).reshape(args[2].shape)
    assert np.allclose(got, a @ b, atol=1e-4)


def test_axis_sums_and_block_extremes_are_numpys(tile_run):
    """Column sums (axis 0), row sums (axis 1) and each block's largest and smallest element, as numpy
    computes them from the sample's inputs (the check above compares against these values)."""
    out = tile_run[3] / "panel_stats"
    meta = json.loads((out / "metadata.json").read_text())
    args = [ArgSpec.from_dict(a) for a in meta["arguments"]]
    a = make_input(args[0], 0, meta["input_seed"]).reshape(16, 8)
    counts = make_input(args[5], 5, meta["input_seed"]).reshape(16, 8)
    got = np.frombuffer((out / "expected.bin").read_bytes(), dtype=np.float32)
    blocks = a.reshape(4, 4, 8)
    cols_before = make_input(args[1], 1, meta["input_seed"])  # a file's written arrays start from values
    np.testing.assert_allclose(got[:8], cols_before + a.sum(axis=0), atol=1e-5)
    np.testing.assert_allclose(got[8:24], np.abs(a).sum(axis=1), atol=1e-5)
    np.testing.assert_array_equal(got[24:28], blocks.max(axis=(1, 2)))
    np.testing.assert_array_equal(got[28:32], 2.0 * blocks.min(axis=(1, 2)))
    top = np.frombuffer((out / "expected.bin").read_bytes()[32 * 4:], dtype=np.int32)
    np.testing.assert_array_equal(top, counts.reshape(4, 4, 8).max(axis=(1, 2)))


def test_block_dim_and_launch_mode_come_from_the_launch_call(tile_run):
    tiles = json.loads((tile_run[3] / "block_stats" / "metadata.json").read_text())["tiles"]
    assert (tiles["block_dim"], tiles["launch"]) == (64, "wp.launch")
    assert tiles["block_dim_origin"].startswith("block_dim=LANES at the wp.launch call")


def test_tiled_launch_runs_one_block_per_launch_index(tile_run):
    cu = (tile_run[3] / "scale_tiles" / "scale_tiles.cu").read_text()
    assert "constexpr int TILE_THREADS = 32;" in cu and "const dim3 block(TILE_THREADS);" in cu
    assert re.search(r"const dim3 grid\(dim0 \* dim1\);", cu)


def test_block_dim_is_declared_when_the_file_does_not_say():
    source = ("import warp as wp\n\n@wp.kernel\ndef energy(x: wp.array(dtype=float), total: wp.array(dtype=float)):\n"
              "    i = wp.tid()\n    v = x[i]\n    wp.tile_atomic_add(total, wp.tile_sum(wp.tile(v * v)))\n")
    found = translate_source(source, "user.py", block_dims={"energy": 128})["energy"]
    assert found.block_dim == 128 and "__shared__ float warp_partial0[4];" in found.kernel_code  # a partial per warp


LAUNCHES = ("import warp as wp\n\nB = 32\nN = 4\n\n\ndef run(a, n):\n"
            "    wp.launch_tiled(k, dim=[N, n], inputs=[a], block_dim=B * 2)\n"
            "    wp.launch(kernel=serial, dim=N - 3, inputs=[a])\n"
            "    wp.launch(kernels[0], dim=1, inputs=[a])\n")


def test_launch_calls_read_kernel_mode_dims_and_block_dim_through_the_files_constants():
    from cuda_production.tiles import LaunchCall, launch_calls
    from cuda_production.translate import file_launch_calls

    tree = ast.parse(LAUNCHES)
    assert file_launch_calls(tree) == [LaunchCall("k", True, (4, None), 64, "B * 2", 8),
                                       LaunchCall("serial", False, (1,), None, None, 9)]
    assert launch_calls(tree, lambda node: None)[1].dim is None  # nothing constant: rank unknown


def test_a_launch_with_a_readable_block_dim_wins_over_an_earlier_unreadable_one():
    from cuda_production.tiles import LaunchCall, tile_launches

    calls = [LaunchCall("k", True, (2,), None, "n", 3), LaunchCall("k", True, (2, 2), 128, "128", 4),
             LaunchCall("k", True, (2,), 32, "32", 5)]
    launch = tile_launches(calls)["k"]
    assert (launch.block_dim, launch.ndim, launch.origin) == (128, 2, "block_dim=128 at the wp.launch_tiled call, line 4")


def test_a_plain_launch_without_block_dim_gets_warps_cuda_default():
    from cuda_production.tiles import LaunchCall, WARP_CUDA_BLOCK_DIM, tile_launches

    launch = tile_launches([LaunchCall("k", False, (256,), None, None, 7)])["k"]
    assert (launch.tiled, launch.block_dim) == (False, WARP_CUDA_BLOCK_DIM)


def test_an_unsupported_tile_builtin_is_refused_with_its_location():
    source = ("import warp as wp\n\n@wp.kernel\ndef scatter(a: wp.array(dtype=float)):\n    i = wp.tid()\n"
              "    t = wp.tile_zeros(shape=16, dtype=float)\n    wp.tile_scatter_masked(t, i % 16, 1.0, True)\n")
    result = translate_source(source, "user.py")["scatter"]
    assert isinstance(result, TranslationError)
    assert str(result) == "user.py:7:5: unsupported: builtin wp.tile_scatter_masked"


def test_writing_a_tile_element_is_refused():
    source = ("import warp as wp\n\n@wp.kernel\ndef poke(a: wp.array(dtype=float)):\n    i = wp.tid()\n"
              "    t = wp.tile_load(a, shape=16)\n    t[0] = 1.0\n    wp.tile_store(a, t)\n")
    result = translate_source(source, "user.py")["poke"]
    assert isinstance(result, TranslationError)
    assert str(result) == "user.py:7:5: unsupported: assignment to a tile element"


@pytest.mark.parametrize("call, message", [
    ("wp.tile_sum(t, axis=2)", "axis 2 of a 2-D tile"),
    ("wp.tile_sum(wp.tile_load(v, shape=4), axis=0)", "unsupported: wp.tile_sum along an axis of a"),
    ("wp.tile_max(wp.tile_load(v, shape=4))", "unsupported: wp.tile_max of a tile of vec3"),
])
def test_a_reduction_the_translator_cannot_write_is_refused_with_its_reason(call, message):
    source = ("import warp as wp\n\n@wp.kernel\ndef red(a: wp.array2d(dtype=float), v: wp.array(dtype=wp.vec3), "
              f"out: wp.array(dtype=float)):\n    i = wp.tid()\n    t = wp.tile_load(a, shape=(4, 8))\n"
              f"    s = {call}\n")
    result = translate_source(source, "user.py")["red"]
    assert isinstance(result, TranslationError) and message in str(result), result


def test_tiles_over_the_shared_memory_limit_are_refused():
    source = ("import warp as wp\n\n@wp.kernel\ndef big(a: wp.array2d(dtype=float)):\n    i = wp.tid()\n"
              "    t = wp.tile_load(a, shape=(128, 128))\n    wp.tile_store(a, t)\n")
    result = translate_source(source, "user.py")["big"]
    assert isinstance(result, TranslationError) and "shared memory" in str(result)


BARRIER_CU = r'''#include <cuda_runtime.h>
#include <cstdio>

// Each thread publishes its index, waits, then reads its neighbour's: one thread at a time would
// read a neighbour not written yet. Thread 0 of each block leaves early, as an exited CUDA thread
// it must not hold up the barrier.
__global__ void rotate(int* out)
{
    __shared__ int slot[64];
    slot[threadIdx.x] = blockIdx.x * 100 + threadIdx.x;
    if (threadIdx.x == 0)
        return;
    __syncthreads();
    out[blockIdx.x * 64 + threadIdx.x] = slot[(threadIdx.x + 1) % 64];
}

int main()
{
    int* d = nullptr;
    cudaMalloc(&d, 3 * 64 * sizeof(int));
    rotate<<<3, 64>>>(d);
    int h[3 * 64];
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; b < 3; ++b)
        for (int t = 1; t < 64; ++t)
            bad += h[b * 64 + t] != b * 100 + (t + 1) % 64;
    printf(bad ? "FAIL %d\n" : "PASS\n", bad);
    return bad != 0;
}
'''


def test_emulated_block_barrier_orders_the_blocks_threads(tmp_path):
    if shutil.which("g++") is None:
        pytest.skip("g++ not installed")
    (tmp_path / "rotate.cu").write_text(BARRIER_CU)
    run = run_on_host(tmp_path, run_args=(), timeout=60)
    assert run.compiled, run.output
    assert run.passed, run.output


def test_every_shared_buffer_a_generated_kernel_declares_is_used():
    """Shared memory a kernel declares and never touches still counts against the block's budget and
    its occupancy (a block reduction by shuffles once declared the tree's partials it no longer used)."""
    from synthesis.categories import generate

    checked = 0
    for seed in range(150):
        spec = generate("tiled", seed)
        code = translate_kernel(spec.source, spec.name, f"{spec.name}.py", block_dim=spec.block_dim,
                                launch_ndim=len(spec.dim)).kernel_code
        for name in re.findall(r"__shared__ \w+ (\w+)\[", code):
            assert len(re.findall(rf"\b{name}\[", code)) > 1, (spec.name, name)
            checked += 1
    assert checked > 150
