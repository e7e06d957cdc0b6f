"""The bit kernels (synthesis/categories/bits.py): each form's outputs, run by Warp on the CPU, are what
the published algorithm gives in numpy (the hashes, Morton codes, packed colours, a radix pass's
histogram, bitsets, spatial hashes), and the arithmetic kernels that are not bit kernels keep their draws."""
from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from cuda_production.reference import warp_reference
from synthesis.categories import bits, generate
from synthesis.spec import KernelSpec
from tests.cuda_production.harness import inputs

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
    specs = [generate("arithmetic", s) for s in _bit_seeds(140)]
    expected = warp_reference(specs, "test_bits")
    out = []
    for spec in specs:
        data, offset, written = expected[spec.name], 0, {}
        for a in spec.args:
            if a.is_written:
                n = a.count * a.width
                written[a.name] = np.frombuffer(data, dtype=a.numpy_dtype, count=n, offset=offset).reshape(
                    tuple(a.shape) + ((a.width,) if a.width > 1 else ()))
                offset += n * a.component_bytes
        arrays = {a.name: v.reshape(tuple(a.shape) + ((a.width,) if a.width > 1 else ()))
                  for a, v in zip((a for a in spec.args if a.is_array), inputs(spec).values())}
        out.append((spec, arrays, written))
    return tuple(out)


def _with(feature: str) -> list[tuple[KernelSpec, dict, dict]]:
    found = [r for r in _runs() if feature in r[0].description]
    assert found, f"no bit kernel with {feature!r} among the first 140"
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
    elif len(spec.dim) == 2:
        i, j = np.meshgrid(np.arange(spec.dim[0]), np.arange(spec.dim[1]), indexing="ij")
        keys = _u(i * spec.dim[1] + j)
    else:
        tid = np.arange(spec.dim[0], dtype=np.uint64)
        seed = np.uint64(_scalar(spec, "seed", "frame", "step"))
        keys = _u(tid + seed * np.uint64(0x9E3779B9)) if "0x9E3779B9" in spec.source else tid ^ seed
    return keys


def _hashed(spec: KernelSpec, arrays: dict) -> np.ndarray:
    name = next(n for n in HASH_FUNCTIONS if f"def {n}(" in spec.source)
    return HASH_FUNCTIONS[name](_hash_keys(spec, arrays))


# ---- tests ---------------------------------------------------------------------------------------------
def test_every_form_is_drawn():
    forms = {f for spec, _, _ in _runs() for f, words in FORM_FEATURES.items() if words in spec.description}
    assert forms == set(bits.BIT_FORMS)


FORM_FEATURES = {"hash": "integer hash", "spatial hash": "spatial hash", "Morton code": "Morton code",
                 "packed colour": "RGBA8", "radix digits": "radix sort", "bitset": "bitset"}


def test_other_arithmetic_kernels_keep_their_draws(monkeypatch):
    """Whether a kernel is a bit kernel comes from a stream of its own: the other seeds draw exactly
    what they drew before bits.py (here: what they draw with bit kernels switched off)."""
    seeds = [s for s in range(120) if not bits.chooses_bits(s)][:40]
    with_bits = [generate("arithmetic", s).source for s in seeds]
    monkeypatch.setattr(bits, "chooses_bits", lambda seed: False)
    assert [generate("arithmetic", s).source for s in seeds] == with_bits


def test_hashes_are_the_published_functions():
    checked = 0
    for spec, arrays, written in _with("integer hash"):
        out = next((written[n] for n in ("hashes", "keys", "hash_out") if n in written), None)
        if out is not None and out.dtype == np.uint32:
            np.testing.assert_array_equal(out, _hashed(spec, arrays).astype(np.uint32), err_msg=spec.source)
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
        np.testing.assert_allclose(out, u, rtol=1e-6, atol=1e-6, err_msg=spec.source)
        checked += 1
    assert checked >= 2


def test_dropout_drops_about_p_and_scales_the_rest():
    for spec, arrays, written in _with("dropout"):
        p = _scalar(spec, "drop_prob", "p", "rate")
        x = _array(spec, arrays, "x", "activations", "inp")
        y = _array(spec, written, "y", "dropped", "out")
        u = (_hashed(spec, arrays) >> np.uint64(8)).astype(np.float64) / 2.0 ** 24
        kept = u >= p
        np.testing.assert_allclose(y[kept], (x[kept] / np.float32(1.0 - p)), rtol=1e-6)
        assert np.all(y[~kept] == 0.0)
        assert abs((~kept).mean() - p) < 0.2  # a hash's bits are uniform enough at these sizes


def test_buckets_count_every_thread_once():
    for spec, arrays, written in _with("hashed into buckets"):
        counts = _array(spec, written, "bucket_counts", "occupancy", "load")
        h = _hashed(spec, arrays)
        np.testing.assert_array_equal(counts, np.bincount((h % np.uint64(counts.size)).astype(np.int64),
                                                          minlength=counts.size))


def test_colours_per_id_are_the_hashs_low_three_bytes():
    for spec, arrays, written in _with("colour per id"):
        h = _hashed(spec, arrays)
        want = np.stack([(h >> np.uint64(8 * k)) & np.uint64(255) for k in range(3)], axis=-1) / 255.0
        np.testing.assert_allclose(_array(spec, written, "colors", "id_color", "rgb"), want, rtol=1e-6)


def test_morton_codes_interleave_the_quantised_point():
    for spec, arrays, written in _with("Morton code (30-bit"):
        points = _array(spec, arrays, "points", "centroids", "positions")
        lower = np.array(_scalar(spec, "lower", "box_min", "origin"), dtype=np.float32)
        inv = np.float32(_scalar(spec, "inv_extent", "inv_size", "scale"))
        q = (points - lower) * inv
        cells = np.clip(q * np.float32(1024.0), 0.0, 1023.0).astype(np.uint32)
        codes = _array(spec, written, "morton_codes", "codes", "keys")
        np.testing.assert_array_equal(codes, interleave([cells[..., 0], cells[..., 1], cells[..., 2]], 10))
        assert len(np.unique(codes)) > codes.size // 4  # the points spread over the box


def test_pixel_morton_codes_put_the_row_on_the_odd_bits():
    for spec, _, written in _with("Morton code of a pixel"):
        i, j = np.meshgrid(np.arange(spec.dim[0]), np.arange(spec.dim[1]), indexing="ij")
        codes = _array(spec, written, "z_order", "morton", "codes")
        np.testing.assert_array_equal(codes, interleave([i, j], 16))


def test_decoded_morton_codes_give_back_the_cell():
    for spec, arrays, written in _with("Morton code decoded"):
        codes = _array(spec, arrays, "codes", "morton", "keys").astype(np.uint64)
        x = sum(((codes >> np.uint64(2 * b)) & np.uint64(1)) << np.uint64(b) for b in range(16))
        y = sum(((codes >> np.uint64(2 * b + 1)) & np.uint64(1)) << np.uint64(b) for b in range(16))
        if "centres" in written or "cell_pos" in written:
            cell = _scalar(spec, "cell_size", "dx")
            want = (np.stack([x, y], axis=-1).astype(np.float64) + 0.5) * cell
            np.testing.assert_allclose(_array(spec, written, "centres", "cell_pos"), want, rtol=1e-6)
        else:
            np.testing.assert_array_equal(_array(spec, written, "cell_x", "col"), x.astype(np.int32))
            np.testing.assert_array_equal(_array(spec, written, "cell_y", "row"), y.astype(np.int32))


def test_packed_colours_round_each_channel_to_a_byte_red_lowest():
    for spec, arrays, written in _with("colour packed"):
        c = _array(spec, arrays, "colors", "rgba", "pixels").astype(np.float32)
        b = (np.clip(c, 0.0, 1.0) * np.float32(255.0) + np.float32(0.5)).astype(np.uint64)
        if b.shape[-1] == 3:
            b = np.concatenate([b, np.full(b.shape[:-1] + (1,), 255, dtype=np.uint64)], axis=-1)
        want = sum(b[..., k] << np.uint64(8 * k) for k in range(4))
        np.testing.assert_array_equal(_array(spec, written, "packed", "rgba8", "image"), want.astype(np.uint32))


def test_unpacked_colours_are_the_bytes_over_255():
    for spec, arrays, written in _with("unpacked from RGBA8"):
        p = _array(spec, arrays, "packed", "rgba8", "image").astype(np.uint64)
        rgb = np.stack([(p >> np.uint64(8 * k)) & np.uint64(255) for k in range(3)], axis=-1) / 255.0
        if "luminance" in spec.description:
            want = rgb @ np.array([0.2126, 0.7152, 0.0722])
            np.testing.assert_allclose(_array(spec, written, "luma", "gray", "luminance"), want, rtol=1e-5, atol=1e-6)
        else:
            np.testing.assert_allclose(_array(spec, written, "colors", "rgb_out"), rgb, rtol=1e-6)


def test_radix_histogram_counts_each_digit():
    for spec, arrays, written in _with("radix sort"):
        keys = _array(spec, arrays, "keys", "sort_keys", "codes").astype(np.uint64)
        shift = np.uint64(_scalar(spec, "shift", "pass_shift", "bit_offset"))
        radix = 16 if "4-bit" in spec.description else 256
        digits = ((keys >> shift) & np.uint64(radix - 1)).astype(np.int64)
        np.testing.assert_array_equal(_array(spec, written, "histogram", "digit_counts", "counts"),
                                      np.bincount(digits, minlength=radix))


def test_bitsets_hold_each_cells_bit():
    set_bits = tested = 0
    for spec, arrays, written in _with("bitset"):
        cells = _array(spec, arrays, "cells", "cell_ids", "voxel_ids").astype(np.int64)
        if "atomic or" in spec.description:
            words = _array(spec, written, "occupied", "bitset", "mask_words")
            want = np.zeros(words.size, dtype=np.uint64)
            np.bitwise_or.at(want, cells >> 5, np.uint64(1) << (cells & 31).astype(np.uint64))
            np.testing.assert_array_equal(words, want.astype(np.uint32))
            set_bits += 1
        else:
            mask = _array(spec, arrays, "occupied", "bitset", "visited").astype(np.int64)
            flag = (mask[cells >> 5] >> (cells & 31)) & 1
            if "is_set" in written or "hit" in written or "occupied_out" in written:
                np.testing.assert_array_equal(_array(spec, written, "is_set", "hit", "occupied_out"), flag)
            else:
                x = _array(spec, arrays, "values", "density", "x")
                np.testing.assert_array_equal(_array(spec, written, "masked", "kept"), np.where(flag == 1, x, 0.0))
            tested += 1
    assert set_bits and tested


def _cells(spec: KernelSpec, arrays: dict) -> np.ndarray:
    """Each point's grid cell, as the kernel computes it (by the inverse cell size, or by the size)."""
    p = _array(spec, arrays, "points", "positions", "x").astype(np.float32)
    if re.search(r"\* (inv_cell|inv_cell_size)\)", spec.source):
        return np.floor(p * np.float32(_scalar(spec, "inv_cell", "inv_cell_size"))).astype(np.int64)
    return np.floor(p / np.float32(_scalar(spec, "cell_size", "h"))).astype(np.int64)


def test_spatial_hash_slots_are_teschners_hash_of_the_cell():
    for spec, arrays, written in _with("spatial hash"):
        cells = _cells(spec, arrays)
        h = np.zeros(cells.shape[:-1], dtype=np.uint64)
        for k in range(cells.shape[-1]):
            h ^= _u(_u(cells[..., k]) * np.uint64(bits.PRIMES[k]))
        if "points counted" in spec.description:
            counts = _array(spec, written, "cell_counts", "bucket_counts")
            slots = (h % np.uint64(counts.size)).astype(np.int64)
            np.testing.assert_array_equal(counts, np.bincount(slots, minlength=counts.size))
        else:
            table = _scalar(spec, "table_size", "num_buckets")
            np.testing.assert_array_equal(_array(spec, written, "cell_ids", "hash_ids"),
                                          (h % np.uint64(table)).astype(np.int32))


def test_cell_keys_pack_ten_bits_per_axis_first_axis_highest():
    for spec, arrays, written in _with("packed into a sort key"):
        cells = _cells(spec, arrays)
        biased = (cells + _scalar(spec, "cell_offset", "bias")) & 0x3FF
        n = biased.shape[-1]
        want = sum(biased[..., k] << (10 * (n - 1 - k)) for k in range(n))
        np.testing.assert_array_equal(_array(spec, written, "cell_keys", "keys", "sort_keys"), want.astype(np.uint32))


@pytest.mark.parametrize("seed", _bit_seeds(30))
def test_bit_kernels_store_no_update_in_place(seed):
    """A hash or a code is stored as it is: never `out[i] += h` (a meaningless sum of codes)."""
    spec = generate("arithmetic", seed)
    assert not re.search(r"\]\s*[+\-*]=", spec.source) or "counts" in spec.source or "histogram" in spec.source
