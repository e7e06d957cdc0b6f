"""Custom reductions, arg-reductions and constructed tiles (cuda_production/tiles.py): `tile_reduce` of
wp.add / mul / max / min and of a @wp.func (whole tile and along an axis), `tile_argmax` / `tile_argmin`,
`tile_arange` and `tile_full`. Each kernel translated and proven equal to Warp on the CPU (Warp's CPU
blocks at the kernel's block_dim vs the .cu under host emulation, one `--reference --check` run), Warp's
results checked against numpy, and the refusals' one-line errors."""
from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pytest

from tests.cuda_production.harness import arrays_of, check_line, kernel_body, refusal, translate_checked

KERNELS_SOURCE = '''import warp as wp

TILE = 64
BLOCK = 32
ROWS = 4
COLS = 24
ODD_BLOCK = 48
STEP = 0.3


@wp.func
def abs_max(a: float, b: float):
    return wp.max(wp.abs(a), wp.abs(b))


@wp.func
def larger_magnitude(a: float, b: float):
    if wp.abs(a) > wp.abs(b):
        return a
    return b


@wp.func
def larger(a: int, b: int):
    return wp.max(a, b)


# translate: dim=3
# translate: x grid_bits=20
@wp.kernel
def whole_tile(x: wp.array(dtype=float), prod: wp.array(dtype=float), peak: wp.array(dtype=float),
               norm_inf: wp.array(dtype=float), where_max: wp.array(dtype=int), where_min: wp.array(dtype=int)):
    i = wp.tid()
    a = wp.tile_load(x, shape=TILE, offset=i * TILE)
    wp.tile_store(prod, wp.tile_reduce(wp.mul, a * 0.01 + wp.tile_ones(shape=TILE, dtype=float)), offset=i)
    wp.tile_store(peak, wp.tile_reduce(wp.max, a), offset=i)
    wp.tile_store(norm_inf, wp.tile_reduce(abs_max, a), offset=i)
    where_max[i] = i * TILE + wp.tile_argmax(a)[0]
    k = wp.tile_argmin(a)
    where_min[i] = wp.tile_extract(k, 0)


# translate: dim=2
# translate: ints low=0 high=3
@wp.kernel
def along_axes(x: wp.array2d(dtype=float), ints: wp.array2d(dtype=int), row_max: wp.array(dtype=float),
               col_min: wp.array(dtype=float), row_prod: wp.array(dtype=float), col_pick: wp.array(dtype=float),
               int_row: wp.array(dtype=int), small: wp.array(dtype=float), tie_max: wp.array(dtype=int),
               tie_min: wp.array(dtype=int), flat: wp.array(dtype=int), int_total: wp.array(dtype=int)):
    i = wp.tid()
    t = wp.tile_load(x, shape=(ROWS, COLS), offset=(i * ROWS, 0))
    wp.tile_store(row_max, wp.tile_reduce(wp.max, t, axis=1), offset=i * ROWS)
    wp.tile_store(col_min, wp.tile_reduce(wp.min, t, axis=0), offset=i * COLS)
    wp.tile_store(row_prod, wp.tile_reduce(wp.mul, t * 0.5 + wp.tile_ones(shape=(ROWS, COLS), dtype=float), axis=1),
                  offset=i * ROWS)
    wp.tile_store(col_pick, wp.tile_reduce(larger_magnitude, t, axis=0), offset=i * COLS)
    n = wp.tile_load(ints, shape=(ROWS, COLS), offset=(i * ROWS, 0))
    wp.tile_store(int_row, wp.tile_reduce(larger, n, axis=1), offset=i * ROWS)
    s = wp.tile_load(x, shape=(1, 8), offset=(0, i * 8))
    wp.tile_store(small, wp.tile_reduce(larger_magnitude, s), offset=i)
    tie_max[i] = wp.tile_argmax(n)[0]
    tie_min[i] = wp.tile_argmin(n)[0]
    flat[i] = wp.tile_argmax(t)[0]
    int_total[i] = wp.tile_reduce(wp.add, n)[0] + wp.tile_reduce(larger, n)[0] + wp.tile_reduce(wp.mul, n)[0]


# translate: dim=3
# translate: weights low=0.25 high=1
@wp.kernel
def centroid(weights: wp.array(dtype=float), center: wp.array(dtype=float), idx: wp.array(dtype=int)):
    i = wp.tid()
    k = wp.tile_arange(TILE, dtype=float)
    a = wp.tile_load(weights, shape=TILE, offset=i * TILE)
    base = wp.tile_full(TILE, value=float(i * TILE), dtype=float)
    center[i] = wp.tile_sum((k + base) * a)[0] / wp.tile_sum(a)[0]
    wp.tile_store(idx, wp.tile_arange(5, 197, 3, dtype=int), offset=i * TILE)


# translate: dim=2
# translate: out_f shape=16
@wp.kernel
def ranges(out_f: wp.array(dtype=float), out_i: wp.array(dtype=int), out_d: wp.array(dtype=wp.float64),
           scale: float, v: wp.array(dtype=float)):
    i = wp.tid()
    a = wp.tile_arange(0.0, 2.0, STEP, dtype=float)
    wp.tile_store(out_f, a * scale, offset=i * 8)
    b = wp.tile_arange(10, 0, -3, dtype=int)
    wp.tile_store(out_i, b, offset=i * 4)
    c = wp.tile_arange(-1.5, 3, dtype=wp.float64)
    wp.tile_store(out_d, c, offset=i * 5)
    f = wp.tile_full(shape=8, value=7, dtype=float) + wp.tile_full(8, v[i] * 2.0)
    wp.tile_store(v, f, offset=16 + i * 8)


def launch(x, n, a, b, c, d, e, s, tm, tn, fl, it, of, oi, od, v):
    wp.launch_tiled(whole_tile, dim=[3], inputs=[x, a, b, c, tm, tn], block_dim=BLOCK)
    wp.launch_tiled(along_axes, dim=[2], inputs=[x, n, a, b, c, d, e, s, tm, tn, fl, it], block_dim=ODD_BLOCK)
    wp.launch_tiled(centroid, dim=[3], inputs=[x, a, tm], block_dim=BLOCK)
    wp.launch_tiled(ranges, dim=[2], inputs=[of, oi, od, 1.5, v], block_dim=ODD_BLOCK)
'''
# whole_tile: tile_reduce of wp.mul (a product near 1), wp.max and a @wp.func (the largest magnitude),
# tile_argmax read by index, tile_argmin through tile_extract; along_axes (48 threads: no power of two):
# tile_reduce along either axis of wp.max / min / mul and of @wp.funcs (float and int), a @wp.func over
# an 8-element tile (fewer elements than threads), arg-reductions of an int tile with many equal values,
# sums, products and maxima of an int tile; centroid: tile_arange plus tile_full of a per-block value,
# index-weighted sums, an int tile_arange with start and step; ranges: float tile_arange with a
# fractional step (7 elements), a negative int step, a float64 range, tile_full of an int literal as
# float and of a value read per thread
KERNELS = ("whole_tile", "along_axes", "centroid", "ranges")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return translate_checked(tmp_path_factory, "tiles_reduce_arange", KERNELS_SOURCE)


@pytest.mark.parametrize("kernel", KERNELS)
def test_kernel_equals_warp_on_the_cpu(run, kernel):
    line = check_line(run, kernel)
    assert line.endswith("equal to Warp (host emulation)") and "NOT" not in line, line


def test_arg_reductions_of_unique_values_are_numpys(run):
    inputs, written = arrays_of(run[3] / "whole_tile")
    blocks = inputs["x"][: 3 * 64].reshape(3, 64)
    for b in blocks:  # one largest and one smallest element: the index is not a matter of ties
        assert (b == b.max()).sum() == 1 and (b == b.min()).sum() == 1
    assert list(written["where_max"]) == [b * 64 + k for b, k in enumerate(blocks.argmax(axis=1))]
    assert list(written["where_min"]) == list(blocks.argmin(axis=1))
    assert np.allclose(written["norm_inf"], np.abs(blocks).max(axis=1))


def test_equal_elements_go_to_the_lowest_thread_then_its_first(run):
    """Among equal best elements Warp's CPU takes the one held by the lowest thread (element e is thread
    e % block_dim's), then that thread's first: not numpy's first index."""
    inputs, written = arrays_of(run[3] / "along_axes")
    ints = inputs["ints"].reshape(-1, 24)
    threads = 48
    for b in range(2):
        flat = ints[b * 4:(b + 1) * 4].ravel()
        for best, got in ((flat.max(), written["tie_max"][b]), (flat.min(), written["tie_min"][b])):
            candidates = [e for e in range(flat.size) if flat[e] == best]
            assert got == min(candidates, key=lambda e: (e % threads, e))
    assert any(written["tie_max"][b] != ints[b * 4:(b + 1) * 4].argmax() for b in range(2))  # the rule is not numpy's


def test_axis_reductions_are_numpys(run):
    inputs, written = arrays_of(run[3] / "along_axes")
    x = inputs["x"].reshape(-1, 24)[:8].reshape(2, 4, 24)
    assert np.array_equal(written["row_max"], x.max(axis=2).ravel())
    assert np.array_equal(written["col_min"], x.min(axis=1).ravel())
    assert np.allclose(written["row_prod"], np.prod(x * 0.5 + 1.0, axis=2).ravel(), rtol=1e-5)
    picked = np.take_along_axis(x, np.abs(x).argmax(axis=1)[:, None, :], axis=1)[:, 0, :]
    assert np.array_equal(np.abs(written["col_pick"]), np.abs(picked).ravel())


def test_arange_has_warps_length_and_values(run):
    """tile_arange(0.0, 2.0, 0.3) holds ceil(2.0 / 0.3) = 7 elements (the 8th of each block's slot is
    left as it was); (10, 0, -3) holds 10, 7, 4, 1; (-1.5, 3) in float64 holds 5."""
    inputs, written = arrays_of(run[3] / "ranges")
    f = written["out_f"].reshape(2, 8)
    meta = json.loads((run[3] / "ranges" / "metadata.json").read_text())
    scale = next(a["value"] for a in meta["arguments"] if a["name"] == "scale")
    want = (np.float32(0.0) + np.arange(7, dtype=np.float32) * np.float32(0.3)) * np.float32(scale)
    assert np.array_equal(f[:, :7], np.stack([want, want]))
    assert np.array_equal(f[:, 7], inputs["out_f"].reshape(2, 8)[:, 7])
    assert list(written["out_i"][:8]) == [10, 7, 4, 1] * 2
    assert list(written["out_d"][:10]) == [-1.5, -0.5, 0.5, 1.5, 2.5] * 2


def test_centroid_of_positions(run):
    inputs, written = arrays_of(run[3] / "centroid")
    w = inputs["weights"][: 3 * 64].reshape(3, 64)
    positions = np.arange(3 * 64, dtype=np.float64).reshape(3, 64)
    assert np.allclose(written["center"], (positions * w).sum(axis=1) / w.sum(axis=1), rtol=1e-5)
    assert list(written["idx"][:64]) == list(range(5, 197, 3))


def test_custom_reduction_of_fewer_elements_than_threads_skips_empty_partials(run):
    """An 8-element tile over 48 threads: only threads holding an element write a partial, and the
    tree combines only those (a @wp.func has no identity to fill the others with)."""
    body = kernel_body(run[3], "along_axes")
    assert "if (threadIdx.x < 8) {" in body
    assert "threadIdx.x + stride" in body and "< 8)" in body


ERRORS = [
    ("wp.tile_arange(n, dtype=float)", "error: wp.tile_arange() argument 'n' is not a constant number"),
    ("wp.tile_arange(5, 5, dtype=float)", "error: wp.tile_arange(5.0, 5.0, 1.0) has no elements"),
    ("wp.tile_arange(0, 10, 0, dtype=int)", "error: wp.tile_arange() step cannot be zero"),
    ("wp.tile_arange(0.5, 10, dtype=int)", "error: wp.tile_arange() bound 0.5 of an int tile"),
    ("wp.tile_arange(0, 1, 1, 2)", "error: wp.tile_arange() takes 1 to 3 positional arguments, got 4"),
    ("wp.tile_reduce(three, wp.tile_load(x, shape=8))", "error: wp.tile_reduce: 'three' does not take two float32 and return one"),
    ("wp.tile_reduce(wp.sub, wp.tile_load(x, shape=8))",
     "unsupported: wp.tile_reduce of anything but wp.add, wp.mul, wp.max, wp.min or a @wp.func"),
]


@pytest.mark.parametrize("call,message", ERRORS, ids=[e[1] for e in ERRORS])
def test_refused_with_one_located_line(call, message):
    source = ("import warp as wp\n\n@wp.func\ndef three(a: float, b: float, c: float):\n    return a\n\n"
              "@wp.kernel\ndef k(x: wp.array(dtype=float), n: int):\n    i = wp.tid()\n"
              f"    wp.tile_store(x, {call})\n\n"
              "def launch(x):\n    wp.launch_tiled(k, dim=[1], inputs=[x, 3], block_dim=32)\n")
    line = refusal(source)
    assert line.startswith("user.py:10:") and message in line, line


def test_an_edit_to_a_reducing_func_alone_is_seen_by_the_reference(tmp_path):
    """Warp 1.19's module hash leaves out a @wp.func passed to wp.tile_reduce, so its kernel cache would
    hand back the binary of the earlier body; the reference's module name holds the file's digest."""
    from cuda_production.translate import translate_file

    source = ("import warp as wp\n\n@wp.func\ndef op(a: float, b: float):\n    return {body}\n\n"
              "# translate: dim=2\n@wp.kernel\ndef reduced(x: wp.array(dtype=float), out: wp.array(dtype=float)):\n"
              "    i = wp.tid()\n    wp.tile_store(out, wp.tile_reduce(op, wp.tile_load(x, shape=64, offset=i * 64)), offset=i)\n\n"
              "def launch(x, out):\n    wp.launch_tiled(reduced, dim=[2], inputs=[x, out], block_dim=32)\n")
    src = tmp_path / "edited.py"
    lines = []
    for k, body in enumerate(("wp.max(a, b)", "a + b")):
        src.write_text(source.format(body=body))
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(io.StringIO()):
            code = translate_file(src, tmp_path / f"out{k}", reference=True, check=True)
        lines.append(stdout.getvalue())
        assert code == 0 and "NOT" not in stdout.getvalue(), stdout.getvalue()
    assert all("equal to Warp (host emulation)" in line for line in lines)
