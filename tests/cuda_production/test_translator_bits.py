"""Unsigned integers and bits in the translator: bitwise atomics (`wp.atomic_or` and `a[i] |= v`),
uint32 atomics, unsigned literals as the file spells them, and bit operations parenthesised as
people write them. Samples are checked against Warp's CPU run."""
from __future__ import annotations

import pytest

from cuda_production.reference import warp_reference
from cuda_production.translator import TranslationError, translate_kernel
from tests.cuda_production.harness import arr, run_sample, scal, spec

BITSET = '''import warp as wp


@wp.kernel
def mark_cells(cells: wp.array(dtype=int), occupancy: wp.array(dtype=wp.uint32), counts: wp.array(dtype=wp.uint32),
               parity: wp.array(dtype=wp.uint32), keep: wp.array(dtype=int), lowest: wp.array(dtype=wp.uint32)):
    tid = wp.tid()
    c = cells[tid]
    bit = wp.uint32(1) << wp.uint32(c & 31)
    wp.atomic_or(occupancy, c >> 5, bit)
    counts[c & 7] += wp.uint32(1)
    parity[tid % 4] ^= bit
    keep[tid % 2] &= ~(1 << (c & 7))
    wp.atomic_min(lowest, 0, wp.uint32(c) * wp.uint32(0x9E3779B9))
'''
BITSET_ARGS = [arr("cells", "int32", "index", high=127), arr("occupancy", "uint32", "output", shape=(4,), bits=0),
               arr("counts", "uint32", "output", shape=(8,), bits=0), arr("parity", "uint32", "output", shape=(4,), bits=0),
               arr("keep", "int32", "inout", shape=(2,), low=-1, high=-1), arr("lowest", "uint32", "inout", shape=(1,),
                                                                                   low=4000, high=4000, bits=0)]

HASH = '''import warp as wp


@wp.func
def wang_hash(seed: wp.uint32) -> wp.uint32:
    h = (seed ^ wp.uint32(61)) ^ (seed >> wp.uint32(16))
    h = h * wp.uint32(9)
    h = h ^ (h >> wp.uint32(4))
    h = h * wp.uint32(0x27D4EB2D)
    return h ^ (h >> wp.uint32(15))


@wp.kernel
def hash_ids(ids: wp.array(dtype=wp.uint32), mask: wp.uint32, out: wp.array(dtype=wp.uint32), unit: wp.array(dtype=float)):
    tid = wp.tid()
    h = wang_hash(ids[tid])
    out[tid] = (h * wp.uint32(0b101)) & mask
    unit[tid] = float(h >> wp.uint32(8)) / 16777216.0
'''


def test_bitwise_atomics_and_augmented_bit_updates_are_cuda_atomics():
    code = translate_kernel(BITSET, "mark_cells", "b.py").kernel_code
    assert "atomicOr(&occupancy[c >> 5], bit);" in code
    assert "atomicXor(&parity[tid % 4], bit);" in code  # `^=` on an element: atomic, as in Warp
    assert "atomicAnd(&keep[tid % 2], ~(1 << (c & 7)));" in code
    assert "atomicAdd(&counts[c & 7], 1u);" in code  # uint32: CUDA's native unsigned atomics
    assert "atomicMin(&lowest[0], (uint32_t)c * 0x9E3779B9u);" in code


def test_bitwise_atomics_equal_warp(tmp_path):
    s = spec("mark_cells", BITSET, BITSET_ARGS)
    expected = warp_reference([s], "test_translator_bits_atomics")["mark_cells"]
    run = run_sample(tmp_path, s, expected)
    assert run.passed, run.output


def test_unsigned_literals_keep_the_files_spelling():
    code = translate_kernel(HASH, "hash_ids", "h.py").device_code
    assert "h = h * 0x27D4EB2Du;" in code  # a multiplier beyond int32, in hexadecimal as written
    assert "h = h * 9u;" in code
    kernel = translate_kernel(HASH, "hash_ids", "h.py").kernel_code
    assert "(h * 0b101u) & mask" in kernel


def test_bit_operations_are_parenthesised_as_people_write_them():
    code = translate_kernel(HASH, "hash_ids", "h.py").device_code
    assert "uint32_t h = seed ^ 61u ^ (seed >> 16u);" in code  # a chain of one operator reads flat
    assert "return h ^ (h >> 15u);" in code


def test_hash_kernel_equals_warp(tmp_path):
    args = [arr("ids", "uint32", "input", low=0, high=100000, bits=0), scal("mask", "uint32", 0xFFFF),
            arr("out", "uint32", "output", bits=0), arr("unit", "float32", "output", bound=1.0)]
    s = spec("hash_ids", HASH, args)
    expected = warp_reference([s], "test_translator_bits_hash")["hash_ids"]
    run = run_sample(tmp_path, s, expected)
    assert run.passed, run.output


@pytest.mark.parametrize("update", ["wp.atomic_or(a, tid, 1.0)", "a[tid] |= 1.0"])
def test_bitwise_atomic_on_floats_is_refused(update):
    source = f'''import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    tid = wp.tid()
    {update}
'''
    with pytest.raises(TranslationError) as err:
        translate_kernel(source, "k", "f.py")
    assert "float32" in str(err.value) and "\n" not in str(err.value)
