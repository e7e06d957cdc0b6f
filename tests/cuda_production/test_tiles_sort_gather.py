"""Array views in tile memory operations, gathers, scatters and sorts (cuda_production/tiles.py): `wp.tile_load(x[i],
...)` / `tile_store` / `tile_atomic_add` through a view of a row (or a plane), `tile_load_indexed` (rows
or columns picked by a tile of indices, -1 reading as zero) and `tile_sort` (keys with a payload, a
power of two and a padded length, equal keys) and `tile_scatter_add` (a block's histogram in shared
memory). Each kernel translated and proven equal to Warp on the
CPU (host emulation, one `--reference --check` run), Warp's results checked against numpy, and the
refusals' one-line errors."""
from __future__ import annotations


import numpy as np
import pytest

from tests.cuda_production.harness import arrays_of, check_line, kernel_body, refusal, translate_checked

KERNELS_SOURCE = '''import warp as wp

COLS = 24
BAG = 8
WIDTH = 16
SCORES = 64
CODES = 40
WIDE = 256
BINS = 16
BLOCK = 64


# translate: dim=4
# translate: x shape=4,20
# translate: y shape=4,20
# translate: col_sums shape=2,20
# translate: v shape=4,3,8
@wp.kernel
def row_views(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float), col_sums: wp.array2d(dtype=float),
              v: wp.array3d(dtype=float), plane_sums: wp.array(dtype=float)):
    i = wp.tid()
    r = wp.tile_load(x[i], shape=COLS)
    wp.tile_store(y[i], r * 2.0)
    wp.tile_atomic_add(col_sums[i % 2], r)
    p = wp.tile_load(v[i], shape=(2, 8), offset=(1, 0))
    wp.tile_store(plane_sums, wp.tile_sum(p), offset=i)


# translate: dim=3
# translate: table shape=40,16
# translate: bags shape=3,8 low=-1 high=15
# translate: cols shape=4 low=-1 high=19
# translate: picked shape=6,4
@wp.kernel
def gathers(table: wp.array2d(dtype=float), bags: wp.array2d(dtype=int), bag_sums: wp.array2d(dtype=float),
            cols: wp.array(dtype=int), picked: wp.array2d(dtype=float)):
    b = wp.tid()
    ids = wp.tile_load(bags[b], shape=BAG)
    rows = wp.tile_load_indexed(table, indices=ids, shape=(BAG, WIDTH), axis=0)
    wp.tile_store(bag_sums[b], wp.tile_sum(rows, axis=0))
    c = wp.tile_load(cols, shape=4)
    t = wp.tile_load_indexed(table, c, shape=(2, 4), offset=(2 * b, 0), axis=1)
    wp.tile_store(picked, t, offset=(2 * b, 0))


# translate: dim=2
# translate: scores grid_bits=20
# translate: codes low=0 high=5
@wp.kernel
def sorts(scores: wp.array(dtype=float), ranked: wp.array(dtype=int), sorted_scores: wp.array(dtype=float),
          codes: wp.array(dtype=int), sorted_codes: wp.array(dtype=int), pos: wp.array(dtype=wp.vec3),
          moved: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    s = wp.tile_load(scores, shape=SCORES, offset=i * SCORES)
    ids = wp.tile_arange(SCORES, dtype=int)
    keys = -s
    wp.tile_sort(keys, ids)
    wp.tile_store(ranked, ids, offset=i * SCORES)
    wp.tile_store(sorted_scores, keys, offset=i * SCORES)
    c = wp.tile_load(codes, shape=CODES, offset=i * CODES)
    p = wp.tile_load(pos, shape=CODES, offset=i * CODES)
    wp.tile_sort(c, p)
    wp.tile_store(sorted_codes, c, offset=i * CODES)
    wp.tile_store(moved, p, offset=i * CODES)


# translate: dim=2
# translate: scores grid_bits=20
# translate: codes low=0 high=5
@wp.kernel
def sorts_in_warps(scores: wp.array(dtype=float), ranked: wp.array(dtype=int), codes: wp.array(dtype=int),
                   weights: wp.array(dtype=float), sorted_codes: wp.array(dtype=int), moved: wp.array(dtype=float)):
    i = wp.tid()
    s = wp.tile_load(scores, shape=WIDE, offset=i * WIDE)
    ids = wp.tile_arange(WIDE, dtype=int)
    wp.tile_sort(s, ids)
    wp.tile_store(ranked, ids, offset=i * WIDE)
    c = wp.tile_load(codes, shape=CODES, offset=i * CODES)
    w = wp.tile_load(weights, shape=CODES, offset=i * CODES)
    wp.tile_sort(c, w)
    wp.tile_store(sorted_codes, c, offset=i * CODES)
    wp.tile_store(moved, w, offset=i * CODES)


# translate: dim=4
# translate: x shape=256 low=0 high=1.25
# translate: w shape=256
# translate: per_block shape=8,16
@wp.kernel
def scatters(x: wp.array(dtype=float), counts: wp.array(dtype=int), per_block: wp.array2d(dtype=float),
             w: wp.array(dtype=float)):
    i, lane = wp.tid()
    bins = wp.tile_zeros(shape=BINS, dtype=int, storage="shared")
    v = x[i * BLOCK + lane]
    b = wp.min(int(v * float(BINS)), BINS - 1)
    wp.tile_scatter_add(bins, b, 1, v < 1.0)
    wp.tile_atomic_add(counts, bins)
    mass = wp.tile_zeros(shape=(2, BINS), dtype=float, storage="shared")
    wp.tile_scatter_add(mass, lane % 2, b, w[i * BLOCK + lane], True)
    wp.tile_store(per_block, mass, offset=(2 * i, 0))


@wp.func
def every_other(k: int) -> int:
    return 2 * k - 2


# translate: dim=3
# translate: stacks shape=3,10,8
# translate: picks shape=3,4 low=-1 high=11
# translate: gathered shape=3,4,8
# translate: x shape=48
# translate: out_rows shape=3,20
@wp.kernel
def indexed_views(stacks: wp.array3d(dtype=float), picks: wp.array2d(dtype=int), gathered: wp.array3d(dtype=float),
                  x: wp.array(dtype=float), out_rows: wp.array2d(dtype=float)):
    b = wp.tid()
    ids = wp.tile_load(picks[b], shape=4)
    rows = wp.tile_load_indexed(stacks[b], indices=ids, shape=(4, 8), axis=0)
    wp.tile_store(gathered[b], rows)
    slots = wp.tile_map(every_other, wp.tile_arange(16, dtype=int))
    v = wp.tile_load(x, shape=16, offset=b * 16)
    wp.tile_store_indexed(out_rows[b], slots, v, axis=0)


# translate: dim=2
# translate: seeds shape=96 low=0 high=65535
@wp.kernel
def uint_keys(seeds: wp.array(dtype=wp.uint32), sorted_keys: wp.array(dtype=wp.uint32), moved_ids: wp.array(dtype=int),
              extremes: wp.array(dtype=wp.uint32)):
    i, lane = wp.tid()
    h = seeds[i * 48 + lane]
    key = (h * wp.uint32(2654435761)) & wp.uint32(0xF0000003)  # Knuth's multiplicative hash, wrapped
    keys = wp.tile(key)
    ids = wp.tile(i * 48 + lane)
    wp.tile_sort(keys, ids)
    wp.tile_store(sorted_keys, keys, offset=i * 48)
    wp.tile_store(moved_ids, ids, offset=i * 48)
    wp.tile_store(extremes, wp.tile_max(keys), offset=3 * i)
    wp.tile_store(extremes, wp.tile_min(keys), offset=3 * i + 1)
    wp.tile_store(extremes, wp.tile_sum(keys), offset=3 * i + 2)


def launch(x, n, a, b, c, d, v3, w3, u):
    wp.launch_tiled(row_views, dim=[4], inputs=[x, a, b, c, d], block_dim=32)
    wp.launch_tiled(gathers, dim=[3], inputs=[x, n, a, n, b], block_dim=64)
    wp.launch_tiled(sorts, dim=[2], inputs=[x, n, a, n, n, v3, w3], block_dim=48)
    wp.launch_tiled(sorts_in_warps, dim=[2], inputs=[x, n, n, x, n, a], block_dim=32)
    wp.launch_tiled(scatters, dim=[4], inputs=[x, n, a, x], block_dim=BLOCK)
    wp.launch_tiled(indexed_views, dim=[3], inputs=[v3, n, w3, x, a], block_dim=32)
    wp.launch_tiled(uint_keys, dim=[2], inputs=[u, u, n, u], block_dim=48)
'''
# row_views: a 24-element tile of a 20-element row (the 4 past its end read 0, stores past it skipped),
# an atomic add into a row of another array, a 2x8 tile of a plane of a 3-D array at a row offset;
# gathers: an embedding bag (8 rows of a table by index, -1 a missing row), columns picked by index at a
# runtime row offset; sorts (48 threads: not whole warps): 64 scores ranked by their negatives with
# their indices as payload (a power of two), 40 int codes in 0..5 (padded to 64, equal keys) moving
# vec3 positions; sorts_in_warps (32 threads: a warp's elements in registers, exchanged by shuffles): 256
# scores ascending (8 a thread, passes of stride 32 and more through shared memory), 40 int codes with
# float weights (padded to 64); scatters: a block's histogram by tile_scatter_add (each thread its value's
# bin, values past the range left out by has_value) merged by tile_atomic_add, and weights summed per
# (lane parity, bin) into a 2-D tile stored per block; indexed_views: rows gathered from a view of a 3-D
# array (a block's own stack; -1 and rows past its end read zero), and a tile scattered into a view of a row
# (slots -2, 0, 2, ... 28: the negative one and those past the row's 20 skipped); uint_keys (48 threads):
# uint32 keys from per-thread values, most above 2**31 (a signed comparison would put them first) and
# many equal (the top four bits and the bottom two kept), sorted with their indices (padded to 64 by
# the largest uint32), and their largest, smallest and wrapped-around sum
KERNELS = ("row_views", "gathers", "sorts", "sorts_in_warps", "scatters", "indexed_views", "uint_keys")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return translate_checked(tmp_path_factory, "tiles_sort_gather", KERNELS_SOURCE)


@pytest.mark.parametrize("kernel", KERNELS)
def test_kernel_equals_warp_on_the_cpu(run, kernel):
    line = check_line(run, kernel)
    assert line.endswith("equal to Warp (host emulation)") and "NOT" not in line, line


def test_views_read_and_write_the_rows(run):
    inputs, written = arrays_of(run[3] / "row_views")
    x = inputs["x"].reshape(4, 20)
    assert np.array_equal(written["y"], 2 * x)
    start = inputs["col_sums"].reshape(2, 20)
    assert np.allclose(written["col_sums"], start + np.stack([x[0] + x[2], x[1] + x[3]]), rtol=1e-6)
    v = inputs["v"].reshape(4, 3, 8)
    assert np.allclose(written["plane_sums"], v[:, 1:3, :].sum(axis=(1, 2)), rtol=1e-5)


def test_views_fix_the_leading_index_without_a_bounds_test(run):
    """Warp tests a view's own dimensions; the row a view fixes is outside the test, as in Warp."""
    body = kernel_body(run[3], "row_views")
    assert "x[i * x_dim1 + e" in body and "i < x_dim0" not in body


def test_gathered_rows_are_numpys_with_missing_rows_zero(run):
    inputs, written = arrays_of(run[3] / "gathers")
    table, bags = inputs["table"].reshape(40, 16), inputs["bags"].reshape(3, 8)
    assert (bags == -1).any()  # a missing row is exercised
    want = np.stack([sum((table[k] for k in bag if k >= 0), np.zeros(16, np.float32)) for bag in bags])
    assert np.allclose(written["bag_sums"], want, rtol=1e-5, atol=1e-6)
    cols = inputs["cols"]
    picked = np.stack([[table[r, c] if 0 <= c < 16 else 0.0 for c in cols] for r in range(6)])
    assert np.array_equal(written["picked"], picked.astype(np.float32))


def test_sorted_keys_are_numpys_and_payloads_follow_them(run):
    inputs, written = arrays_of(run[3] / "sorts")
    scores = inputs["scores"][:128].reshape(2, 64)
    assert all(len(set(row)) == 64 for row in scores)  # distinct: the ranking is not a matter of ties
    assert np.array_equal(written["ranked"][:128].reshape(2, 64), np.argsort(-scores, axis=1))
    assert np.array_equal(written["sorted_scores"][:128].reshape(2, 64), np.sort(-scores, axis=1))
    codes, pos = inputs["codes"][:80].reshape(2, 40), inputs["pos"].reshape(-1, 3)[:80].reshape(2, 40, 3)
    got_codes, moved = written["sorted_codes"][:80].reshape(2, 40), written["moved"][:80].reshape(2, 40, 3)
    assert np.array_equal(got_codes, np.sort(codes, axis=1))
    assert any(len(set(row)) < 40 for row in codes)  # equal keys are exercised
    for b in range(2):  # each position moved with its own code
        before = sorted((int(c), tuple(p)) for c, p in zip(codes[b], pos[b]))
        after = sorted((int(c), tuple(p)) for c, p in zip(got_codes[b], moved[b]))
        assert before == after


def test_a_padded_sort_goes_through_a_power_of_two_copy(run):
    body = kernel_body(run[3], "sorts")
    assert "tile_sort_pairs<64, TILE_THREADS>(keys, ids, 3.402823466e+38f);" in body
    assert "tile_sort_pairs<40, TILE_THREADS>(c, p, 2147483647);" in body


ERRORS = [
    ("k = wp.tile_load(x, shape=8)\n    wp.tile_sort(k, k)",
     "unsupported: wp.tile_sort of one tile as both keys and values"),
    ("wp.tile_sort(wp.tile_load(x, shape=8), wp.tile_load(x, shape=8))",
     "unsupported: wp.tile_sort of tiles other than tile variables"),
    ("k = wp.tile_load(d, shape=8)\n    v = wp.tile_load(x, shape=8)\n    wp.tile_sort(k, v)",
     "unsupported: wp.tile_sort by keys of float64 (float32, int32 and uint32 keys only)"),
    ("k = wp.tile_load(x, shape=4096)\n    v = wp.tile_load(x, shape=4096)\n    wp.tile_sort(k, v)",
     "unsupported: wp.tile_sort of 4096 elements (up to 2048"),
    ("k = wp.tile_load(x, shape=8)\n    v = wp.tile_load(x, shape=16)\n    wp.tile_sort(k, v)",
     "error: wp.tile_sort of keys tile(float32, shape=(8,)) and values tile(float32, shape=(16,)): the shapes differ"),
    ("t = wp.tile_load_indexed(m, wp.tile_arange(3, dtype=int), shape=(4, 2))",
     "error: indices: a tile of 4 int is expected"),
    ("h = wp.tile_zeros(shape=8, dtype=int)\n    wp.tile_scatter_add(h, i, 1.0, True)",
     "error: wp.tile_scatter_add of a float32 value into a tile(int32, shape=(8,)); Warp requires the tile's element type"),
    ("wp.tile_scatter_add(wp.tile_zeros(shape=8, dtype=int), i, 1, True)",
     "unsupported: wp.tile_scatter_add into a tile other than a tile variable"),
    ("h = wp.tile_zeros(shape=(2, 8), dtype=float)\n    wp.tile_scatter_add(h, 1, i, 1.0, 0.5)",
     "error: has_value of type float32; Warp requires bool"),
    ("h = wp.tile_zeros(shape=(2, 8), dtype=float)\n    wp.tile_scatter_add(h, i, 1.0, True)",
     "error: wp.tile_scatter_add() needs 'has_value'"),  # a 2-D tile takes two indices
]


@pytest.mark.parametrize("body,message", ERRORS, ids=[e[1] for e in ERRORS])
def test_refused_with_one_located_line(body, message):
    source = ("import warp as wp\n\n@wp.kernel\n"
              "def k(x: wp.array(dtype=float), d: wp.array(dtype=wp.float64), m: wp.array2d(dtype=float)):\n"
              f"    i = wp.tid()\n    {body}\n\n"
              "def launch(x, d, m):\n    wp.launch_tiled(k, dim=[1], inputs=[x, d, m], block_dim=32)\n")
    line = refusal(source)
    assert line.startswith(f"user.py:{6 + body.count(chr(10))}:") and message in line, line  # the body's last line


def test_a_warps_sort_keeps_elements_in_registers_and_equals_numpy(run):
    body = kernel_body(run[3], "sorts_in_warps")
    assert "tile_sort_pairs<256, TILE_THREADS>(s, ids, 3.402823466e+38f);" in body
    inputs, written = arrays_of(run[3] / "sorts_in_warps")
    scores = inputs["scores"][:512].reshape(2, 256)
    assert np.array_equal(written["ranked"][:512].reshape(2, 256), np.argsort(scores, axis=1, kind="stable"))
    codes, weights = inputs["codes"][:80].reshape(2, 40), inputs["weights"][:80].reshape(2, 40)
    got_codes, moved = written["sorted_codes"][:80].reshape(2, 40), written["moved"][:80].reshape(2, 40)
    assert np.array_equal(got_codes, np.sort(codes, axis=1))
    for b in range(2):
        assert sorted(zip(codes[b], weights[b])) == sorted(zip(got_codes[b], moved[b]))


def test_a_blocks_histogram_by_scatter_adds_is_numpys(run):
    inputs, written = arrays_of(run[3] / "scatters")
    x, w = inputs["x"].reshape(4, 64), inputs["w"].reshape(4, 64)
    assert (x >= 1.0).any()  # has_value leaves some out
    bins = np.minimum((x * np.float32(16)).astype(np.int64), 15)
    want = inputs["counts"] + np.bincount(bins[x < 1.0], minlength=16)
    assert np.array_equal(written["counts"], want)
    mass = np.zeros((4, 2, 16))
    for blk in range(4):
        np.add.at(mass[blk], (np.arange(64) % 2, bins[blk]), w[blk])
    np.testing.assert_allclose(written["per_block"].reshape(4, 2, 16), mass, rtol=1e-5)
    body = kernel_body(run[3], "scatters")
    assert "atomicAdd(&bins[b], 1);" in body and "if (v < 1.0f)" in body


def test_a_short_sort_keeps_what_came_before_it_pending():
    """A sort of at most a warp's elements in registers has no barrier in it: a block sum thread 0
    wrote after the last barrier, before the sort, still needs one before every thread reads it."""
    from cuda_production.translator import translate_source

    source = ("import warp as wp\n\n@wp.kernel\n"
              "def k(x: wp.array(dtype=float), n: wp.array(dtype=int), y: wp.array(dtype=float)):\n"
              "    i = wp.tid()\n    t = wp.tile_load(x, shape=32)\n    keys = wp.tile_load(x, shape=16, offset=32)\n"
              "    ids = wp.tile_load(n, shape=16)\n    first = wp.tile_extract(t, 3)\n    total = wp.tile_sum(t)\n"
              "    wp.tile_sort(keys, ids)\n    y[i] = total[0] + first\n\n"
              "def launch(x, n, y):\n    wp.launch_tiled(k, dim=[1], inputs=[x, n, y], block_dim=32)\n")
    code = translate_source(source, "user.py")["k"].kernel_code
    after_sort = code[code.index("tile_sort_pairs<16"):]
    assert "__syncthreads();" in after_sort and after_sort.index("__syncthreads();") < after_sort.index("y[i] =")


def test_indexed_loads_and_stores_through_views_address_the_blocks_own_rows(run):
    """`tile_load_indexed(stacks[b], ...)` gathers from block b's own 10 x 8 stack (an index of -1, or
    past its 10 rows, reads zero); `tile_store_indexed(out_rows[b], slots, v)` writes v[k] to column
    2k - 2 of row b, skipping the columns outside the row's 20: Warp's results, against numpy."""
    inputs, written = arrays_of(run[3] / "indexed_views")
    stacks, picks = inputs["stacks"].reshape(3, 10, 8), inputs["picks"].reshape(3, 4)
    assert ((picks < 0) | (picks >= 10)).any() and ((picks >= 0) & (picks < 10)).any()
    want = np.stack([[stacks[b, r] if 0 <= r < 10 else np.zeros(8, np.float32) for r in picks[b]] for b in range(3)])
    assert np.array_equal(written["gathered"].reshape(3, 4, 8), want)
    rows = inputs["out_rows"].reshape(3, 20).copy()
    x = inputs["x"].reshape(3, 16)
    for k in range(1, 11):
        rows[:, 2 * k - 2] = x[:, k]
    assert np.array_equal(written["out_rows"].reshape(3, 20), rows)


def test_uint32_keys_sort_unsigned_with_their_payloads_and_reduce_as_numpys(run):
    inputs, written = arrays_of(run[3] / "uint_keys")
    h = inputs["seeds"][:96].astype(np.uint32)
    keys = ((h.astype(np.uint64) * 2654435761 % 2**32).astype(np.uint32) & np.uint32(0xF0000003)).reshape(2, 48)
    assert (keys >= 2**31).any() and (keys < 2**31).any()  # both halves: the order is unsigned
    assert all(len(set(row)) < 48 for row in keys)  # equal keys are exercised
    got = written["sorted_keys"][:96].astype(np.uint32).reshape(2, 48)
    assert np.array_equal(got, np.sort(keys, axis=1))
    ids = written["moved_ids"][:96].reshape(2, 48)
    assert np.array_equal(keys.ravel()[ids], got)  # each index moved with its own key
    assert sorted(ids.ravel()) == list(range(96))
    extremes = written["extremes"][:6].astype(np.uint32).reshape(2, 3)
    assert np.array_equal(extremes[:, 0], keys.max(axis=1)) and np.array_equal(extremes[:, 1], keys.min(axis=1))
    assert np.array_equal(extremes[:, 2], (keys.astype(np.uint64).sum(axis=1) % 2**32).astype(np.uint32))
    assert "tile_sort_pairs<48, TILE_THREADS>(keys, ids, 4294967295u);" in kernel_body(run[3], "uint_keys")
