"""Tile FFTs, scans and scatters (cuda_production/tiles.py), complex (vec2f / vec2d) tiles, module-level
vector constants and wp.cw_mul / cw_div: each translated and proven equal to Warp on the CPU (Warp's
CPU blocks at the same block_dim vs the .cu under host emulation), and the refusals' one-line errors.

One translate run (`--reference --check`) covers every kernel below."""
from __future__ import annotations

import json

import numpy as np
import pytest

from cuda_production.reference import make_input
from cuda_production.translator import TranslationError, translate_source
from synthesis.spec import ArgSpec
from tests.cuda_production.harness import translate_checked

KERNELS_SOURCE = '''import warp as wp

ROWS = 2
N = 32
BLOCK = 8
LANES = 16

scale = wp.vec2d(wp.float64(1 / N), 0.5)
weights = wp.vec3(0.25, -2.0, 3.0)


@wp.func
def damp(x: wp.vec2d):
    return wp.cw_mul(x, scale)


@wp.func
def place(valid: int, rank: int, base: int) -> int:
    if valid > 0:
        return rank + base - 1
    return -1


@wp.func
def mirror(k: int) -> int:
    return LANES - 1 - k


# translate: dim=3
@wp.kernel
def fft_rows(x: wp.array2d(dtype=wp.vec2d), y: wp.array2d(dtype=wp.vec2d),
             u: wp.array2d(dtype=wp.vec2f), v: wp.array2d(dtype=wp.vec2f)):
    i, _ = wp.tid()
    a = wp.tile_load(x, shape=(ROWS, N), offset=(i * ROWS, 0))
    wp.tile_fft(a)
    wp.tile_store(y, a, offset=(i * ROWS, 0))
    b = wp.tile_load(u, shape=(ROWS, N), offset=(i * ROWS, 0))
    wp.tile_ifft(b)
    wp.tile_store(v, b, offset=(i * ROWS, 0))


# translate: dim=2
@wp.kernel
def filtered(x: wp.array2d(dtype=wp.vec2d), y: wp.array2d(dtype=wp.vec2d)):
    i = wp.tid()
    a = wp.tile_load(x, shape=(1, N), offset=(i, 0))
    wp.tile_fft(a)
    b = wp.tile_map(damp, a)
    wp.tile_ifft(b)
    wp.tile_store(y, b, offset=(i, 0))


@wp.kernel
def componentwise(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = wp.cw_div(wp.cw_mul(a[i], weights), b[i] + wp.vec3(4.0, 4.0, 4.0))


# translate: dim=4
# translate: flags low=0 high=1
# translate: packed shape=64
@wp.kernel
def compact(flags: wp.array(dtype=int), data: wp.array(dtype=float), count: wp.array(dtype=int),
            packed: wp.array(dtype=float), sums: wp.array(dtype=float), rows: wp.array2d(dtype=float),
            mirrored: wp.array2d(dtype=float)):
    i, lane = wp.tid()
    values = wp.tile_load(data, LANES, offset=i * LANES)
    valid = wp.tile_load(flags, LANES, offset=i * LANES)
    rank = wp.tile_scan_inclusive(valid)
    base = 0
    if lane == wp.block_dim() - 1:
        base = wp.atomic_add(count, 0, wp.tile_extract(rank, wp.block_dim() - 1))
    bases = wp.tile_from_thread(shape=LANES, value=base, thread_idx=wp.block_dim() - 1, storage="shared")
    wp.tile_store_indexed(packed, wp.tile_map(place, valid, rank, bases), values, axis=0)
    wp.tile_store(sums, wp.tile_scan_exclusive(values * 2.0), offset=i * LANES)
    reversed_lanes = wp.tile_map(mirror, wp.tile_scan_exclusive(wp.tile_ones(shape=LANES, dtype=int)))
    block = wp.tile_load(rows, shape=(2, LANES), offset=(2 * i, 0))
    wp.tile_store_indexed(mirrored, reversed_lanes, block, offset=(2 * i, 0), axis=1)


# translate: dim=2
# translate: shift low=8 high=9
@wp.kernel
def solve(a: wp.array2d(dtype=wp.float64), shift: wp.array(dtype=wp.float64), rhs: wp.array(dtype=wp.float64),
          rhs2: wp.array2d(dtype=wp.float64), lower: wp.array2d(dtype=wp.float64), upper: wp.array2d(dtype=wp.float64),
          x: wp.array(dtype=wp.float64), x2: wp.array2d(dtype=wp.float64)):
    i = wp.tid()
    m = wp.tile_load(a, shape=(8, 8), offset=(i * 8, 0))
    spd = wp.tile_diag_add(wp.tile_matmul(m, wp.tile_transpose(m)), wp.tile_load(shift, shape=8, offset=i * 8))
    l = wp.tile_cholesky(spd)
    u = wp.tile_cholesky(spd, fill_mode="upper")
    wp.tile_store(lower, l, offset=(i * 8, 0))
    wp.tile_store(upper, u, offset=(i * 8, 0))
    wp.tile_store(x, wp.tile_cholesky_solve(l, wp.tile_load(rhs, shape=8, offset=i * 8)), offset=i * 8)
    wp.tile_store(x2, wp.tile_cholesky_solve(u, wp.tile_load(rhs2, shape=(8, 3), offset=(i * 8, 0)), fill_mode="upper"),
                  offset=(i * 8, 0))


@wp.func
def relu(x: wp.float16):
    return wp.max(x, wp.float16(0.0))


# translate: out shape=5,64
# translate: wide shape=8,16
@wp.kernel
def mlp_layer(idx: wp.array(dtype=int), w: wp.array2d(dtype=wp.float16), wide: wp.array2d(dtype=float),
              out: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    k = idx[wp.tid()]
    v = wp.types.vector(dtype=wp.float16, length=6)
    for c in range(6):
        v[c] = wp.float16(wp.sin(float(k + c)))
    h = wp.tile_map(relu, wp.tile_matmul(wp.tile_load(w, shape=(5, 6)), wp.tile(v)))
    r = wp.untile(h)
    m = wp.untile(wp.tile_matmul(wp.tile_load(wide, shape=(7, 4)), wp.tile_load(wide, shape=(4, LANES))))
    for c in range(5):
        out[c, wp.tid()] = float(r[c]) + m[c + 2]
    if loss:
        wp.atomic_add(loss, 0, float(wp.min(r[0], r[1])))


def launch(x, y, u, v, a, b, c, f, d, n, p, s, r, m, g, h, k, q, o):
    wp.launch_tiled(fft_rows, dim=[3], inputs=[x, y, u, v], block_dim=BLOCK)
    wp.launch_tiled(filtered, dim=[2], inputs=[x, y], block_dim=BLOCK)
    wp.launch(componentwise, dim=64, inputs=[a, b, c])
    wp.launch_tiled(compact, dim=[4], inputs=[f, d, n, p, s, r, m], block_dim=LANES)
    wp.launch_tiled(solve, dim=[2], inputs=[g, h, k, q, a, b, c, d], block_dim=BLOCK)
    wp.launch(mlp_layer, dim=64, inputs=[f, h, d, r, o], block_dim=LANES)
'''
# fft_rows: tile_fft / tile_ifft of vec2d and vec2f tiles of several rows, `_` in wp.tid()'s targets;
# filtered: fft, tile_map of a @wp.func using cw_mul and a module-level wp.vec2d constant, ifft;
# componentwise: cw_mul / cw_div of vec3 and a module-level wp.vec3 constant;
# compact: stream compaction (tile_scan_inclusive, tile_extract, tile_from_thread, tile_map of three tiles,
# tile_store_indexed along axis 0 skipping -1), tile_scan_exclusive of int and float tiles, and a 2-D
# tile_store_indexed along axis 1
# solve: tile_diag_add, tile_cholesky (lower and upper), tile_cholesky_solve of a vector and of a matrix
# mlp_layer (as Warp's tile MLP example): wp.tid() as a value, a local wp.types.vector of float16 filled by
# index and tiled with wp.tile, a float16 tile_matmul (accumulated in half, as Warp), half max/min in a
# tile_map, wp.untile to vectors of 5 halves and 7 floats read by index, `if array:`
KERNELS = ("fft_rows", "filtered", "componentwise", "compact", "solve", "mlp_layer")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return translate_checked(tmp_path_factory, "tiles_fft_scan", KERNELS_SOURCE)


@pytest.mark.parametrize("kernel", KERNELS)
def test_kernel_equals_warp_on_the_cpu(run, kernel):
    _, out, err, _ = run
    line = next((line for line in out.splitlines() if line.startswith(f"{kernel}:")), f"no line for {kernel}: {err}")
    assert line.endswith("equal to Warp (host emulation)") and "NOT" not in line, line


def _inputs(folder, *names):
    meta = json.loads((folder / "metadata.json").read_text())
    args = [ArgSpec.from_dict(a) for a in meta["arguments"]]
    by_name = {a.name: (k, a) for k, a in enumerate(args)}
    return [make_input(by_name[n][1], by_name[n][0], meta["input_seed"]) for n in names], meta


def test_fft_reference_is_numpys_fft_of_each_row(run):
    """Warp's result (what the .cu was checked against) is the discrete Fourier transform."""
    folder = run[3] / "fft_rows"
    (x,), meta = _inputs(folder, "x")
    shape = next(a["shape"] for a in meta["arguments"] if a["name"] == "x")
    signal = x.reshape(*shape, 2)
    rows = 3 * 2  # three blocks of two rows
    want = np.fft.fft(signal[:rows, :32, 0] + 1j * signal[:rows, :32, 1], axis=1)
    raw = np.frombuffer((folder / "expected.bin").read_bytes(), dtype=np.float64)
    got = raw[: np.prod(shape) * 2].reshape(*shape, 2)[:rows, :32]
    assert np.allclose(got[..., 0] + 1j * got[..., 1], want, atol=1e-9)


def test_compaction_packs_the_flagged_values(run):
    """Warp's result (what the .cu was checked against) is the compaction: blocks reserve their slots
    after `count`'s initial value, in block order (Warp's CPU runs the blocks in turn)."""
    folder = run[3] / "compact"
    (flags, data, count0), meta = _inputs(folder, "flags", "data", "count")
    kept = data[flags > 0]
    shape = {a["name"]: a["shape"] for a in meta["arguments"]}
    raw = (folder / "expected.bin").read_bytes()
    arrays, offset = {}, 0
    for name in meta["written_arrays"]:  # expected.bin: each written array in turn
        n = int(np.prod(shape[name])) * 4
        arrays[name] = raw[offset: offset + n]
        offset += n
    start = int(count0[0])
    count = int(np.frombuffer(arrays["count"], dtype=np.int32)[0])
    packed = np.frombuffer(arrays["packed"], dtype=np.float32)
    assert count == start + len(kept) and len(kept) > 0
    assert np.array_equal(packed[start: start + len(kept)], kept[: len(packed) - start])


def test_cholesky_reference_is_numpys_factor_and_solution(run):
    """Warp's results (what the .cu was checked against) factor m m^T + diag(shift) and solve with it."""
    folder = run[3] / "solve"
    (a, shift, rhs, rhs2), meta = _inputs(folder, "a", "shift", "rhs", "rhs2")
    raw = np.frombuffer((folder / "expected.bin").read_bytes(), dtype=np.float64)
    sizes = {"lower": 128, "upper": 128, "x": 16, "x2": 48}
    got, offset = {}, 0
    for name in meta["written_arrays"]:
        got[name], offset = raw[offset: offset + sizes[name]], offset + sizes[name]
    for i in range(2):
        m = a.reshape(16, 8)[i * 8:(i + 1) * 8]
        spd = m @ m.T + np.diag(shift[i * 8:(i + 1) * 8])
        rows = slice(i * 8, (i + 1) * 8)
        assert np.allclose(got["lower"].reshape(16, 8)[rows], np.linalg.cholesky(spd))
        assert np.allclose(got["upper"].reshape(16, 8)[rows], np.linalg.cholesky(spd).T)
        assert np.allclose(got["x"][rows], np.linalg.solve(spd, rhs[rows]))
        assert np.allclose(got["x2"].reshape(16, 3)[rows], np.linalg.solve(spd, rhs2.reshape(16, 3)[rows]))


def test_cholesky_of_a_non_square_tile_is_refused():
    message = _refusal("    t = wp.tile_load(a, shape=(4, 8))\n    l = wp.tile_cholesky(t)\n", "a: wp.array2d(dtype=float)")
    assert message == ("user.py:7:9: unsupported: wp.tile_cholesky of a tile(float32, shape=(4, 8)) "
                       "(square float32 / float64 tiles only)")


def test_local_vectors_are_c_arrays_and_an_array_condition_tests_for_null(run):
    cu = (run[3] / "mlp_layer" / "mlp_layer.cu").read_text()
    assert "__half v[6];" in cu and "if (loss != nullptr)" in cu


def test_a_local_vector_with_initial_values_is_refused():
    message = _refusal("    v = wp.types.vector(1.0, 2.0, dtype=float, length=2)\n", "a: wp.array(dtype=float)")
    assert message == ("user.py:6:9: unsupported: wp.types.vector() other than "
                       "`wp.types.vector(dtype=T, length=N)` (zeros)")


def test_returning_a_local_vector_from_a_helper_is_refused():
    source = ("import warp as wp\n\n@wp.func\ndef g(x: float):\n    v = wp.types.vector(dtype=float, length=3)\n"
              "    return v\n\n@wp.kernel\ndef k(a: wp.array(dtype=float)):\n    i = wp.tid()\n    a[i] = g(1.0)[0]\n")
    result = translate_source(source, "user.py")["k"]
    assert str(result) == "user.py:6:12: unsupported: returning a vector(length=3, dtype=float32) from a @wp.func"


def _refusal(body: str, params: str = "a: wp.array2d(dtype=wp.vec2f)") -> str:
    source = f"import warp as wp\n\n@wp.kernel\ndef k({params}):\n    i = wp.tid()\n{body}"
    result = translate_source(source, "user.py")["k"]
    assert isinstance(result, TranslationError)
    return str(result)


def test_fft_of_rows_not_a_power_of_two_is_refused():
    assert _refusal("    t = wp.tile_load(a, shape=(1, 24))\n    wp.tile_fft(t)\n    wp.tile_store(a, t)\n") == \
        "user.py:7:5: unsupported: wp.tile_fft of rows of 24 elements (powers of two only)"


def test_fft_of_a_real_tile_is_refused():
    message = _refusal("    t = wp.tile_load(a, shape=(1, 32))\n    wp.tile_ifft(t)\n    wp.tile_store(a, t)\n",
                       "a: wp.array2d(dtype=float)")
    assert message == ("user.py:7:5: unsupported: wp.tile_ifft of a tile(float32, shape=(1, 32)) "
                       "(tiles of vec2f or vec2d only)")


def test_the_value_of_an_in_place_fft_is_refused():
    assert _refusal("    t = wp.tile_load(a, shape=(1, 32))\n    s = wp.tile_fft(t)\n") == \
        "user.py:7:9: unsupported: the value of wp.tile_fft (it transforms its tile in place)"


def test_scan_of_a_vector_tile_is_refused():
    assert _refusal("    t = wp.tile_load(a, shape=(1, 32))\n    s = wp.tile_scan_inclusive(t)\n") == \
        "user.py:7:9: unsupported: wp.tile_scan_inclusive of a tile of vec2"


def test_scatter_indices_of_the_wrong_length_are_an_error():
    message = _refusal("    t = wp.tile_load(a, shape=8)\n    idx = wp.tile_load(b, shape=4)\n"
                       "    wp.tile_store_indexed(a, idx, t)\n",
                       "a: wp.array(dtype=float), b: wp.array(dtype=int)")
    assert message == "user.py:8:30: error: indices: a tile of 8 int is expected, found a tile(int32, shape=(4,))"


def test_every_transform_calls_one_device_function_with_its_sign_size_and_rows(run):
    """wp.tile_fft and wp.tile_ifft of the same tile shape are one function in the .cu, instantiated for
    the direction, the row length, the row count and the block's threads, not two inline copies."""
    cu = (run[3] / "fft_rows" / "fft_rows.cu").read_text()
    assert cu.count("__device__ void tile_fft_rows(") == 1
    assert "tile_fft_rows<-1, 32, 2, TILE_THREADS>(a);" in cu and "tile_fft_rows<1, 32, 2, TILE_THREADS>(b);" in cu


def test_the_fft_takes_two_stages_per_pass_and_computes_each_twiddle_once_per_call(run):
    cu = (run[3] / "fft_rows" / "fft_rows.cu").read_text()
    fft = cu[cu.index("__device__ void tile_fft_rows("):]
    fft = fft[:fft.index("\n}\n")]
    assert "for (; 4 * half <= N; half <<= 2)" in fft and "if (half < N)" in fft
    assert fft.count("fft_butterfly(") == 4 + 1 and fft.count("__syncthreads();") == 3
    assert fft.count("unit_complex(") == 1 and "__shared__ Complex twiddle[N / 2];" in fft


@pytest.mark.parametrize("real", [np.float32, np.float64])
def test_the_twiddle_tables_angles_are_warps_angles_bit_for_bit(real):
    """The .cu reads stage `length`'s twiddle `pos` from the n-point table at pos * (n / length): its angle
    (sign * 2pi / n) * (pos * n / length) must round to Warp's (sign * 2pi / length) * pos exactly."""
    two_pi = real(6.28318530717958647692528676655900576839433879875021)
    for n in (2 ** k for k in range(1, 13)):
        for sign in (-1, 1):
            table = (real(sign) * two_pi / real(n)) * np.arange(n // 2, dtype=real)
            length = 2
            while length <= n:
                pos = np.arange(length // 2, dtype=real)
                warp = (real(sign) * two_pi / real(length)) * pos
                assert np.array_equal(table[(pos * (n // length)).astype(int)], warp), (n, length)
                length *= 2
