"""The bit kernels (synthesis/categories/bits.py): each form's outputs, run by Warp on the CPU, are what
the published algorithm gives in numpy (the hashes, Morton codes, packed colours, a radix pass's
histogram, bitsets, spatial hashes), and the arithmetic kernels that are not bit kernels keep their draws."""
from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from synthesis.categories import bits, generate
from synthesis.spec import KernelSpec
from tests.cuda_production.harness import warp_runs
from tests.synthesis.shares import assert_earlier_forms_kept, assert_others_keep_their_draws

M32 = np.uint64(0xFFFFFFFF)


# ---- the algorithms, written from their publications -----------------------------------------------
def _u(x) -> np.ndarray:
    return np.asarray(x, dtype=np.uint64) & M32


def pcg_hash(x):
    state = _u(_u(x) * np.uint64(747796405) + np.uint64(2891336453))
    word = _u(((state >> ((state >> np.uint64(28)) + np.uint64(4))) ^ state) * np.uint64(277803737))
    return (word >> np.uint64(22)) ^ word


def wang_hash(x):
    x = _u(x)
    x = (x ^ np.uint64(61)) ^ (x >> np.uint64(16))
    x = _u(x * np.uint64(9))
    x = x ^ (x >> np.uint64(4))
    x = _u(x * np.uint64(0x27D4EB2D))
    return x ^ (x >> np.uint64(15))


def fmix32(h):
    h = _u(h)
    h = h ^ (h >> np.uint64(16))
    h = _u(h * np.uint64(0x85EBCA6B))
    h = h ^ (h >> np.uint64(13))
    h = _u(h * np.uint64(0xC2B2AE35))
    return h ^ (h >> np.uint64(16))


HASH_FUNCTIONS = {"pcg_hash": pcg_hash, "wang_hash": wang_hash, "fmix32": fmix32}


def interleave(coords: list[np.ndarray], bits_per_axis: int) -> np.ndarray:
    """The Morton code of integer coordinates: bit b of axis k at bit b * n + (n - 1 - k), the first
    axis highest."""
    n = len(coords)
    code = np.zeros_like(coords[0], dtype=np.uint64)
    for k, c in enumerate(coords):
        for b in range(bits_per_axis):
            code |= ((np.asarray(c, dtype=np.uint64) >> np.uint64(b)) & np.uint64(1)) << np.uint64(b * n + (n - 1 - k))
    return code


# ---- the kernels ---------------------------------------------------------------------------------------
def _bit_seeds(count: int) -> list[int]:
    return [s for s in range(2000) if bits.chooses_bits(s)][:count]


@functools.lru_cache(maxsize=None)
def _runs() -> tuple[tuple[KernelSpec, dict, dict], ...]:
    return warp_runs([generate("arithmetic", s) for s in _bit_seeds(200)], "test_bits")


def _with(feature: str) -> list[tuple[KernelSpec, dict, dict]]:
    found = [r for r in _runs() if feature in r[0].description]
    assert found, f"no bit kernel with {feature!r} among the first 200"
    return found


def _scalar(spec: KernelSpec, *names: str):
    return next(a.value for a in spec.args if a.role == "scalar" and a.name in names)


def _array(spec: KernelSpec, arrays: dict, *names: str) -> np.ndarray:
    return next(arrays[n] for n in names if n in arrays)


def _hash_keys(spec: KernelSpec, arrays: dict) -> np.ndarray:
    """What the kernel hashes, from its source: an id array, a pixel's linear index, or the thread index
    with a seed (spread by the golden ratio, or xored)."""
    ids = [n for n in ("ids", "particle_ids", "entity_ids") if n in arrays]
    if ids:
        keys = _u(arrays[ids[0]].astype(np.uint64))
    elif len(spec.dim) == 2:  # a pixel's linear index; in some with the frame (session 47)
        i, j = np.meshgrid(np.arange(spec.dim[0]), np.arange(spec.dim[1]), indexing="ij")
        keys = _u(i * spec.dim[1] + j)
        if "a run of frames" in spec.description:
            keys = _u(keys + np.uint64(_scalar(spec, "frame", "frame_index", "sample_index") * spec.dim[0] * spec.dim[1]))
        elif "the frame's hash" in spec.description:
            name = next(n for n in HASH_FUNCTIONS if f"def {n}(" in spec.source)
            keys = keys ^ HASH_FUNCTIONS[name](_scalar(spec, "frame", "frame_index", "sample_index"))
    else:
        tid = np.arange(spec.dim[0], dtype=np.uint64)
        seed = np.uint64(_scalar(spec, "seed", "frame", "step"))
        keys = _u(tid + seed * np.uint64(0x9E3779B9)) if "0x9E3779B9" in spec.source else tid ^ seed
    return keys


def _hashed(spec: KernelSpec, arrays: dict) -> np.ndarray:
    name = next(n for n in HASH_FUNCTIONS if f"def {n}(" in spec.source)
    return HASH_FUNCTIONS[name](_hash_keys(spec, arrays))


def _active(spec: KernelSpec, arrays: dict) -> np.ndarray:
    """Which threads get past the kernel's early return (`common.early_return`): a padded launch's
    `if tid >= n`, a mask's `if mask[tid] == 0`, a flag bit's `if (flags[tid] & ACTIVE) == 0`; all where
    it has none."""
    active = np.ones(spec.dim, dtype=bool)
    if m := re.search(r"if tid >= (\w+):\n\s+return", spec.source):
        active &= np.arange(spec.dim[0]) < _scalar(spec, m.group(1))
    if m := re.search(r"if (\w+)\[tid\] == 0:\n\s+return", spec.source):
        active &= arrays[m.group(1)] != 0
    if m := re.search(r"if \((\w+)\[tid\] & (\w+)\) == 0:\n\s+return", spec.source):
        bit = int(re.search(rf"^{m.group(2)} = (?:wp\.constant\()?(\d+)", spec.source, re.M).group(1))
        active &= (arrays[m.group(1)] & bit) != 0
    return active


def _expect(out: np.ndarray, want: np.ndarray, active: np.ndarray, **close) -> None:
    """`out` is `want` where a thread ran and zero (never written) where it returned early."""
    if close:
        np.testing.assert_allclose(out[active], np.asarray(want)[active], **close)
    else:
        np.testing.assert_array_equal(out[active], np.asarray(want)[active])
    assert not np.any(out[~active]), "an element of a thread that returned early was written"


# ---- tests ---------------------------------------------------------------------------------------------
def test_every_form_is_drawn():
    forms = {f for spec, _, _ in _runs() for f, words in FORM_FEATURES.items() if words in spec.description}
    assert forms == set(bits.BIT_FORMS)


FORM_FEATURES = {"hash": "integer hash", "spatial hash": "spatial hash", "Morton code": "Morton code",
                 "packed colour": "A8", "radix digits": "radix sort", "bitset": "bitset"}


def test_other_arithmetic_kernels_keep_their_draws(monkeypatch):
    """Whether a kernel is a bit kernel comes from a stream of its own: the other seeds draw exactly
    what they drew before bits.py (here: what they draw with bit kernels switched off)."""
    assert_others_keep_their_draws(monkeypatch, "arithmetic", bits, "chooses_bits")


def test_hashes_are_the_published_functions():
    checked = 0
    for spec, arrays, written in _with("integer hash"):
        out = next((written[n] for n in ("hashes", "keys", "hash_out") if n in written), None)
        if out is not None and out.dtype == np.uint32:
            _expect(out, _hashed(spec, arrays).astype(np.uint32), _active(spec, arrays))
            checked += 1
    assert checked >= 3


def test_uniform_numbers_are_the_hashs_top_24_bits():
    checked = 0
    for spec, arrays, written in _with("uniform random number"):
        u = (_hashed(spec, arrays) >> np.uint64(8)).astype(np.float64) / 2.0 ** 24
        assert 0.0 <= u.min() and u.max() < 1.0 and len(np.unique(u)) > u.size // 2
        out = next(written[n] for n in ("noise", "rand_u", "samples") if n in written)
        if "in a range" in spec.description:
            lo, hi = _scalar(spec, "lo", "low", "min_value"), _scalar(spec, "hi", "high", "max_value")
            u = lo + (hi - lo) * u
        _expect(out, u, _active(spec, arrays), rtol=1e-6, atol=1e-6)
        checked += 1
    assert checked >= 2


def test_dropout_drops_about_p_and_scales_the_rest():
    for spec, arrays, written in _with("dropout"):
        p = _scalar(spec, "drop_prob", "p", "rate")
        x = _array(spec, arrays, "x", "activations", "inp")
        y = _array(spec, written, "y", "dropped", "out")
        u = (_hashed(spec, arrays) >> np.uint64(8)).astype(np.float64) / 2.0 ** 24
        kept = u >= p
        _expect(y, np.where(kept, x / np.float32(1.0 - p), 0.0), _active(spec, arrays), rtol=1e-6)
        assert abs((~kept).mean() - p) < 0.2  # a hash's bits are uniform enough at these sizes


def test_buckets_count_every_thread_once():
    for spec, arrays, written in _with("hashed into buckets"):
        counts = _array(spec, written, "bucket_counts", "occupancy", "load")
        h = _hashed(spec, arrays)[_active(spec, arrays)]
        np.testing.assert_array_equal(counts, np.bincount((h % np.uint64(counts.size)).astype(np.int64),
                                                          minlength=counts.size))


def test_colours_per_id_are_the_hashs_low_three_bytes():
    for spec, arrays, written in _with("colour per id"):
        h = _hashed(spec, arrays)
        want = np.stack([(h >> np.uint64(8 * k)) & np.uint64(255) for k in range(3)], axis=-1) / 255.0
        _expect(_array(spec, written, "colors", "id_color", "rgb"), want, _active(spec, arrays), rtol=1e-6)


def test_sample_points_are_two_numbers_of_one_stream():
    """The point's second number is the hash of the first's hash: the stream's next number."""
    for spec, arrays, written in _with("2-D sample point"):
        name = next(n for n in HASH_FUNCTIONS if f"def {n}(" in spec.source)
        h = _hashed(spec, arrays)
        want = np.stack([(x >> np.uint64(8)).astype(np.float64) / 2.0 ** 24 for x in (h, HASH_FUNCTIONS[name](h))], -1)
        _expect(_array(spec, written, "sample_points", "uv", "points2d"), want, _active(spec, arrays), rtol=1e-6)


def test_subpixel_samples_jitter_each_pixels_centre_by_two_numbers_of_its_stream():
    """A ray's uv: (j + u) / width, (i + v) / height, u and v the stream's first two numbers; every
    sample inside its own pixel."""
    found = _with("jittered sample inside each pixel")
    assert any("frame" in s.description for s, _, _ in found)  # the frame forms are among them
    for spec, arrays, written in found:
        name = next(n for n in HASH_FUNCTIONS if f"def {n}(" in spec.source)
        h = _hashed(spec, arrays)
        u, v = ((x >> np.uint64(8)).astype(np.float64) / 2.0 ** 24 for x in (h, HASH_FUNCTIONS[name](h)))
        i, j = np.meshgrid(np.arange(spec.dim[0]), np.arange(spec.dim[1]), indexing="ij")
        uv = _array(spec, written, "uv", "pixel_uv", "ray_uv")
        np.testing.assert_allclose(uv[..., 0], (j + u) / spec.dim[1], rtol=1e-6)
        np.testing.assert_allclose(uv[..., 1], (i + v) / spec.dim[0], rtol=1e-6)
        assert np.all(np.floor(uv[..., 0] * spec.dim[1]) == j) and np.all(np.floor(uv[..., 1] * spec.dim[0]) == i)


def _pixel_codes(spec, arrays) -> np.ndarray:
    """Each pixel's Z-order code (in the larger image where a tile origin is added); 0xFFFFFFFF where a
    mask leaves the pixel out (a sort by code puts it last)."""
    i, j = np.meshgrid(np.arange(spec.dim[0]), np.arange(spec.dim[1]), indexing="ij")
    if "tile origin" in spec.description:
        i, j = i + _scalar(spec, "y0", "tile_y", "origin_y"), j + _scalar(spec, "x0", "tile_x", "origin_x")
    codes = interleave([i, j], 16)
    if "block-linear order" in spec.description:  # 8 x 8 tiles row by row, Z-order inside each
        tiles = _scalar(spec, "tiles_per_row", "tiles_x", "tile_cols")
        assert tiles == (spec.dim[1] + 7) // 8
        codes = ((((i >> 3) * tiles + (j >> 3)).astype(np.uint64) << np.uint64(6)) | interleave([i & 7, j & 7], 3))
    if "masked pixels keyed last" in spec.description:
        codes = np.where(_array(spec, arrays, "valid", "mask", "coverage") == 0, np.uint32(0xFFFFFFFF), codes)
    return codes


def test_a_pixels_morton_code_carries_its_linear_index():
    for spec, arrays, written in _with("a sort's payload"):
        i, j = np.meshgrid(np.arange(spec.dim[0]), np.arange(spec.dim[1]), indexing="ij")
        np.testing.assert_array_equal(_array(spec, written, "pixel_ids", "order", "values"), i * spec.dim[1] + j)
        np.testing.assert_array_equal(_array(spec, written, "z_order", "morton", "codes"), _pixel_codes(spec, arrays))


def test_a_block_linear_code_orders_tiles_then_pixels_within_them():
    kernels = _with("block-linear order")
    for spec, arrays, written in kernels:
        codes = _array(spec, written, "z_order", "morton", "codes")
        np.testing.assert_array_equal(codes, _pixel_codes(spec, arrays))
        if "masked pixels keyed last" not in spec.description:  # a permutation of 0 .. 64 x tiles - 1's subset
            assert len(np.unique(codes)) == codes.size


def test_a_masked_pixel_is_keyed_last():
    kernels = _with("masked pixels keyed last")
    assert kernels
    for spec, arrays, written in kernels:
        codes = _array(spec, written, "z_order", "morton", "codes")
        np.testing.assert_array_equal(codes, _pixel_codes(spec, arrays))
        assert 0 < np.count_nonzero(codes == np.uint32(0xFFFFFFFF)) < codes.size


def test_the_pixel_kernels_the_breadth_stream_leaves_alone_keep_their_draws(monkeypatch):
    """Every bit kernel without one of session 47's pixel forms draws exactly what it draws when the
    stream keeps the earlier forms."""
    new = ("a run of frames", "the frame's hash", "jittered sample inside", "a sort's payload")
    assert_earlier_forms_kept(monkeypatch, "arithmetic", _bit_seeds(300), bits, "breadth", new, 300 // 4)


def test_morton_codes_interleave_the_quantised_point():
    for spec, arrays, written in _with("Morton code (30-bit"):
        points = _array(spec, arrays, "points", "centroids", "positions")
        lower = np.array(_scalar(spec, "lower", "box_min", "origin"), dtype=np.float32)
        inv = np.float32(_scalar(spec, "inv_extent", "inv_size", "scale"))
        q = (points - lower) * inv
        cells = np.clip(q * np.float32(1024.0), 0.0, 1023.0).astype(np.uint32)
        codes = _array(spec, written, "morton_codes", "codes", "keys")
        _expect(codes, interleave([cells[..., 0], cells[..., 1], cells[..., 2]], 10), _active(spec, arrays))
        assert len(np.unique(codes)) > codes.size // 4  # the points spread over the box


def test_pixel_morton_codes_put_the_row_on_the_odd_bits():
    for spec, arrays, written in _with("Morton code of a pixel"):
        np.testing.assert_array_equal(_array(spec, written, "z_order", "morton", "codes"), _pixel_codes(spec, arrays))


def test_decoded_morton_codes_give_back_the_cell():
    for spec, arrays, written in _with("Morton code decoded"):
        codes = _array(spec, arrays, "codes", "morton", "keys").astype(np.uint64)
        x = sum(((codes >> np.uint64(2 * b)) & np.uint64(1)) << np.uint64(b) for b in range(16))
        y = sum(((codes >> np.uint64(2 * b + 1)) & np.uint64(1)) << np.uint64(b) for b in range(16))
        active = _active(spec, arrays)
        if "centres" in written or "cell_pos" in written:
            cell = _scalar(spec, "cell_size", "dx")
            want = (np.stack([x, y], axis=-1).astype(np.float64) + 0.5) * cell
            _expect(_array(spec, written, "centres", "cell_pos"), want, active, rtol=1e-6)
        else:
            _expect(_array(spec, written, "cell_x", "col"), x.astype(np.int32), active)
            _expect(_array(spec, written, "cell_y", "row"), y.astype(np.int32), active)


def _order(spec: KernelSpec) -> str:
    return "bgra" if "BGRA8" in spec.description else "rgba"


def test_packed_colours_round_each_channel_to_a_byte_in_their_order():
    for spec, arrays, written in _with("colour packed"):
        c = _array(spec, arrays, "colors", "rgba", "pixels").astype(np.float32)
        b = (np.clip(c, 0.0, 1.0) * np.float32(255.0) + np.float32(0.5)).astype(np.uint64)
        if b.shape[-1] == 3:
            b = np.concatenate([b, np.full(b.shape[:-1] + (1,), 255, dtype=np.uint64)], axis=-1)
        want = sum(b[..., "rgba".index(name)] << np.uint64(8 * k) for k, name in enumerate(_order(spec)))
        _expect(_array(spec, written, "packed", "rgba8", "image", "bgra8", "surface"), want.astype(np.uint32),
                _active(spec, arrays))


def test_unpacked_colours_are_the_bytes_over_255():
    for spec, arrays, written in _with("unpacked from"):
        p = _array(spec, arrays, "packed", "rgba8", "image", "bgra8", "surface").astype(np.uint64)
        byte = {name: ((p >> np.uint64(8 * k)) & np.uint64(255)) / 255.0 for k, name in enumerate(_order(spec))}
        rgb = np.stack([byte["r"], byte["g"], byte["b"]], axis=-1)
        active = _active(spec, arrays)
        if "luminance" in spec.description:
            weights = [0.2126, 0.7152, 0.0722] if "Rec. 709" in spec.description else [0.299, 0.587, 0.114]
            _expect(_array(spec, written, "luma", "gray", "luminance"), rgb @ np.array(weights), active,
                    rtol=1e-5, atol=1e-6)
        elif "rgba_out" in written or written.get("colors", np.zeros((1, 3))).shape[-1] == 4:
            _expect(_array(spec, written, "colors", "rgba_out"), np.concatenate([rgb, byte["a"][..., None]], -1),
                    active, rtol=1e-6)
        else:
            _expect(_array(spec, written, "colors", "rgb_out"), rgb, active, rtol=1e-6)


@functools.lru_cache(maxsize=None)
def _radix_runs() -> tuple[tuple[KernelSpec, dict, dict], ...]:
    """Radix kernels of both kinds, one pass's histogram and every pass's at once: 40 of them."""
    specs = [spec for spec in (generate("arithmetic", s) for s in _bit_seeds(1000))
             if "radix sort" in spec.description or "one sweep" in spec.description][:40]
    return warp_runs(specs, "test_bits_radix")


def test_radix_histogram_counts_each_digit():
    signed = descending = 0
    for spec, arrays, written in (r for r in _radix_runs() if "radix sort" in r[0].description):
        keys = _array(spec, arrays, "keys", "sort_keys", "codes")
        if "signed keys" in spec.description:  # the sign bit flipped: negative keys first
            keys = keys.astype(np.int64).astype(np.uint64) & M32 ^ np.uint64(0x80000000)
            signed += 1
        keys = keys.astype(np.uint64)
        radix = 16 if "4-bit" in spec.description else 256
        index = [a.value for a in spec.args if a.name in ("pass_index", "digit_pass", "pass_id")]
        shift = np.uint64(index[0] * (4 if radix == 16 else 8) if index else _scalar(spec, "shift", "pass_shift", "bit_offset"))
        digits = ((keys >> shift) & np.uint64(radix - 1)).astype(np.int64)
        if "descending" in spec.description:
            digits = radix - 1 - digits
            descending += 1
        np.testing.assert_array_equal(_array(spec, written, "histogram", "digit_counts", "counts"),
                                      np.bincount(digits[_active(spec, arrays)], minlength=radix))
    assert signed and descending


def test_one_sweep_counts_every_passs_digits():
    """Row p of the histograms (or the bins at p * radix of a flat array) is the digit histogram of pass
    p: each row counts every active key once, for as many passes as the keys' bits need."""
    swept, variants = 0, set()
    for spec, arrays, written in (r for r in _radix_runs() if "one sweep" in r[0].description):
        keys = _array(spec, arrays, "keys", "sort_keys", "codes")
        if "0x80000000" in spec.source:  # the sign bit flipped: negative keys first
            keys = keys.astype(np.int64).astype(np.uint64) & M32 ^ np.uint64(0x80000000)
        keys = keys.astype(np.uint64)
        width = int(re.search(r"\((\d+)-bit digits\)", spec.description).group(1))
        key_bits = int(m.group(1)) if (m := re.search(r"(\d+)-bit keys", spec.description)) else 32
        assert keys.max() < 2 ** key_bits
        passes = -(-key_bits // width)
        counts = _array(spec, written, "histograms", "pass_counts", "digit_counts")
        flat = "p * radix" in spec.description
        assert counts.shape == ((passes * 2 ** width,) if flat else (passes, 2 ** width))
        counts = counts.reshape(passes, 2 ** width)
        active = _active(spec, arrays)
        for p in range(passes):
            digits = ((keys >> np.uint64(p * width)) & np.uint64(2 ** width - 1)).astype(np.int64)
            np.testing.assert_array_equal(counts[p], np.bincount(digits[active], minlength=2 ** width))
        swept += 1
        variants.add((width, key_bits < 32, flat))
    assert swept >= 6 and len(variants) >= 4


def test_bitsets_hold_each_cells_bit():
    kinds, tested = set(), 0
    for spec, arrays, written in _with("bitset"):
        cells = _array(spec, arrays, "cells", "cell_ids", "voxel_ids").astype(np.int64)
        active = _active(spec, arrays)
        if m := re.search(r"if (\w+)_v > (\w+):", spec.source):  # only where a value passes a threshold
            active = active & (arrays[m.group(1)] > _scalar(spec, m.group(2)))
        if "occupancy bitset" in spec.description:
            kind = re.search(r"\((atomic [^)]*)\)", spec.description).group(1)
            name = next(n for n in ("occupied", "bitset", "mask_words", "free", "alive") if n in written)
            start = arrays.get(name, np.zeros(written[name].shape, dtype=np.uint32)).astype(np.uint64)
            bit = np.uint64(1) << (cells[active] & 31).astype(np.uint64)
            want = start.copy()
            ufunc = {"atomic or": np.bitwise_or, "atomic and of the complement": np.bitwise_and,
                     "atomic xor": np.bitwise_xor}[kind]
            ufunc.at(want, cells[active] >> 5, ~bit & M32 if kind.startswith("atomic and") else bit)
            np.testing.assert_array_equal(written[name], want.astype(np.uint32))
            kinds.add(kind)
        else:
            mask = _array(spec, arrays, "occupied", "bitset", "visited").astype(np.int64)
            flag = (mask[cells >> 5] >> (cells & 31)) & 1
            if "is_set" in written or "hit" in written or "occupied_out" in written:
                _expect(_array(spec, written, "is_set", "hit", "occupied_out"), flag, active)
            else:
                x = _array(spec, arrays, "values", "density", "x")
                _expect(_array(spec, written, "masked", "kept"), np.where(flag == 1, x, 0.0), active)
            tested += 1
    assert len(kinds) == 3 and tested


def _cells(spec: KernelSpec, arrays: dict) -> np.ndarray:
    """Each point's grid cell, as the kernel computes it (by the inverse cell size, or by the size)."""
    p = _array(spec, arrays, "points", "positions", "x").astype(np.float32)
    lower = [a.value for a in spec.args if a.name in ("grid_origin", "lower", "domain_min")]
    if lower:  # cells from the grid's lower corner
        p = p - np.array(lower[0], dtype=np.float32)
    if re.search(r"\* (inv_cell|inv_cell_size)\)", spec.source):
        return np.floor(p * np.float32(_scalar(spec, "inv_cell", "inv_cell_size"))).astype(np.int64)
    return np.floor(p / np.float32(_scalar(spec, "cell_size", "h"))).astype(np.int64)


def test_spatial_hash_slots_are_teschners_hash_of_the_cell():
    for spec, arrays, written in _with("spatial hash"):
        cells = _cells(spec, arrays)
        h = np.zeros(cells.shape[:-1], dtype=np.uint64)
        for k in range(cells.shape[-1]):
            h ^= _u(_u(cells[..., k]) * np.uint64(bits.PRIMES[k]))
        active = _active(spec, arrays)
        if "points counted" in spec.description:
            counts = _array(spec, written, "cell_counts", "bucket_counts")
            slots = (h % np.uint64(counts.size)).astype(np.int64)
            np.testing.assert_array_equal(counts, np.bincount(slots[active], minlength=counts.size))
        else:
            table = _scalar(spec, "table_size", "num_buckets")
            _expect(_array(spec, written, "cell_ids", "hash_ids"), (h % np.uint64(table)).astype(np.int32), active)


def test_cell_keys_pack_ten_bits_per_axis_first_axis_highest():
    for spec, arrays, written in _with("packed into a sort key"):
        cells = _cells(spec, arrays)
        biased = (cells + _scalar(spec, "cell_offset", "bias")) & 0x3FF
        n = biased.shape[-1]
        want = sum(biased[..., k] << (10 * (n - 1 - k)) for k in range(n))
        _expect(_array(spec, written, "cell_keys", "keys", "sort_keys"), want.astype(np.uint32), _active(spec, arrays))


@pytest.mark.parametrize("seed", _bit_seeds(30))
def test_bit_kernels_store_no_update_in_place(seed):
    """A hash or a code is stored as it is: never `out[i] += h` (a meaningless sum of codes)."""
    spec = generate("arithmetic", seed)
    assert not re.search(r"\]\s*[+\-*]=", spec.source) or "counts" in spec.source or "histogram" in spec.source


def test_bitset_cells_stay_inside_the_bitset_at_bench_size():
    """The bench grows the launch, not the bitset: its cell indices keep their range (an index array
    whose range matched the launch's size was once grown with it, reading far past the bitset)."""
    from cuda_production.bench import bench_args, bench_launch_dim

    checked = 0
    for seed in _bit_seeds(600):
        spec = generate("arithmetic", seed)
        if "bitset" not in spec.description:
            continue
        grown = bench_args(list(spec.args), spec.dim, bench_launch_dim(list(spec.args), spec.dim, spec.block_dim or 1))
        words = next(a.shape[0] for a in grown if a.dtype == "uint32" and a.is_array)
        cells = next(a for a in grown if a.role == "index")
        assert cells.high < 32 * words, spec.source
        checked += 1
    assert checked >= 20


def test_a_digit_histogram_keeps_one_bin_per_digit_at_any_bench_size():
    """256 (or 16) bins whatever the launch: beside a launch of 128 the shape rule grew them with it, and
    at a bench below the check launch shrank them below the digits (AddressSanitizer found it)."""
    from cuda_production.bench import bench_shape

    for spec, _, _ in _with("radix sort"):
        histogram = next(a for a in spec.args if a.name in ("histogram", "digit_counts", "counts"))
        assert histogram.keeps_size, spec.source
        for outer in (max(1, spec.dim[0] // 4), 2 * spec.dim[0] + 1, spec.dim[0] * 64):
            assert bench_shape(histogram, spec.dim, (outer, *spec.dim[1:])) == histogram.shape
