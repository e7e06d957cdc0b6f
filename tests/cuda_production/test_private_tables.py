"""Small integer tables counted per block: each block adds into its own copy in shared memory and
adds that into the table once (`translator.privatizable_tables`), where the rule allows it, and the
sample stays equal to Warp."""
from __future__ import annotations

import shutil

import pytest

from cuda_production.compile_cuda import validate_samples
from cuda_production.reference import input_seed, sample_args, warp_reference
from cuda_production.sample import write_sample
from cuda_production.templates import Tolerance
from cuda_production.translator import translate_kernel
from tests.cuda_production.harness import arr, run_sample, scal, spec

HIST = '''import warp as wp


@wp.kernel
def histogram(keys: wp.array(dtype=wp.uint32), shift: int, counts: wp.array(dtype=int), net: wp.array(dtype=wp.uint32),
              out: wp.array(dtype=float)):
    tid = wp.tid()
    digit = int((keys[tid] >> wp.uint32(shift)) & wp.uint32(0xF))
    wp.atomic_add(counts, digit, 1)
    if digit > 7:
        counts[digit - 8] += 2
    net[digit % 4] -= wp.uint32(1)
    out[tid] = float(counts.shape[0])
'''
ARGS = [arr("keys", "uint32", "input", shape=(300,), low=0, high=2 ** 20, bits=0), scal("shift", "int32", 4),
        arr("counts", "int32", "output", shape=(16,)), arr("net", "uint32", "output", shape=(4,), bits=0),
        arr("out", "float32", "output", shape=(300,))]
TABLES = {"counts": 16, "net": 4}


def code(source: str, name: str, tables=TABLES) -> str:
    return translate_kernel(source, name, "k.py", tables).kernel_code


def test_a_histogram_counts_into_a_copy_per_block_then_adds_it_once():
    text = code(HIST, "histogram")
    assert "__shared__ int counts_block[16];" in text and "__shared__ uint32_t net_block[4];" in text
    assert "atomicAdd(&counts_block[digit], 1);" in text and "atomicAdd(&counts_block[digit - 8], 2);" in text
    assert "atomicSub(&net_block[digit % 4], 1u);" in text
    assert "atomicAdd(&counts[k], counts_block[k]);" in text and "atomicAdd(&net[k], net_block[k]);" in text
    # every thread reaches the barriers: the launch guard is a block, not an early return
    assert "if (tid < n) {" in text and "return;" not in text
    assert text.index("__syncthreads();") < text.index("const int tid") < text.rindex("__syncthreads();")


def test_a_privatized_histogram_equals_warp(tmp_path):
    s = spec("histogram", HIST, ARGS, dim=(300,))
    run = run_sample(tmp_path, s, warp_reference([s], "test_private_tables")["histogram"])
    assert run.passed, run.output
    assert "counts_block" in (tmp_path / "histogram" / "histogram.cu").read_text()


@pytest.mark.parametrize("change, why", [
    ("    x = counts[0]\n    out[tid] = float(x)\n", "an element read"),
    ("    counts[0] = 5\n", "an element stored"),
    ("    old = wp.atomic_add(counts, 1, 1)\n    out[tid] = float(old)\n", "an atomic's result used"),
    ("    wp.atomic_max(counts, 2, tid)\n", "another atomic"),
    ("    if tid > 200:\n        return\n", "a return"),
])
def test_a_table_is_counted_in_place_when_the_rule_does_not_hold(change, why):
    source = HIST.replace("    out[tid] = float(counts.shape[0])\n", change)
    text = code(source, "histogram")
    assert "counts_block" not in text, why
    assert "net_block" in text or why == "a return"  # the other table keeps its copy


def test_float_tables_and_tables_not_known_small_are_counted_in_place():
    source = HIST.replace("counts: wp.array(dtype=int)", "counts: wp.array(dtype=float)").replace(
        "wp.atomic_add(counts, digit, 1)", "wp.atomic_add(counts, digit, 1.0)").replace("+= 2", "+= 2.0")
    assert "counts_block" not in code(source, "histogram")  # a float sum's order would change
    assert "_block" not in code(HIST, "histogram", {})


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")
def test_a_privatized_histogram_compiles_with_nvcc(tmp_path):
    s = spec("histogram", HIST, ARGS, dim=(300,))
    kernel = translate_kernel(s.source, s.name, "histogram.py", TABLES)
    folder = write_sample(tmp_path / s.name, kernel, s.source, sample_args(s), s.dim, input_seed(s), Tolerance(),
                          warp_reference([s], "test_private_tables_nvcc")[s.name], {"category": "test"})
    result = validate_samples([(folder / "histogram.cu", "histogram")])[0]
    assert result.status == "ok", result


def test_a_one_element_counter_is_zeroed_and_added_by_thread_zero():
    source = '''import warp as wp


@wp.kernel
def count_positive(x: wp.array(dtype=float), inside: wp.array(dtype=int)):
    tid = wp.tid()
    if x[tid] > 0.0:
        wp.atomic_add(inside, 0, 1)
'''
    text = code(source, "count_positive", {"inside": 1})
    assert "if (threadIdx.x == 0)\n        inside_block[0] = 0;" in text
    assert "atomicAdd(&inside[0], inside_block[0]);" in text and "for (int k" not in text
