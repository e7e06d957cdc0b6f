"""Warp-aggregated atomics on small fixed-size tables: where the translator uses them, and that the
samples stay equal to Warp."""
from __future__ import annotations

import shutil

import pytest

from cuda_production.bench import SMALL_TABLE, small_tables
from cuda_production.compile_cuda import validate_samples
from cuda_production.reference import warp_reference
from cuda_production.sample import write_sample
from cuda_production.reference import input_seed, sample_args
from cuda_production.templates import Tolerance
from cuda_production.translator import translate_kernel
from tests.cuda_production.harness import arr, run_sample, spec

HIST = '''import warp as wp


@wp.kernel
def hist_k(v: wp.array(dtype=float), idx: wp.array(dtype=int), hist: wp.array(dtype=float), cnt: wp.array(dtype=int),
           peak: wp.array(dtype=float), own: wp.array(dtype=float), first: wp.array(dtype=int)):
    i = wp.tid()
    x = v[i]
    wp.atomic_add(hist, idx[i], x)
    cnt[i % 4] += 1
    wp.atomic_sub(hist, i % 3, x * 0.5)
    wp.atomic_max(cnt, idx[i], i)
    wp.atomic_min(peak, i % 2, x)
    wp.atomic_max(peak, 2 + i % 2, x)
    own[i] += x
    old = wp.atomic_add(cnt, 4, 1)
    first[i] = old
'''
ARGS = [arr("v", bits=3), arr("idx", "int32", "index", high=7), arr("hist", role="output", shape=(8,), bound=64.0),
        arr("cnt", "int32", "output", shape=(8,)), arr("peak", role="output", shape=(4,)),
        arr("own", role="output"), arr("first", "int32", "output")]


TABLES = {"hist": 8, "cnt": 8, "peak": 4}


def test_small_fixed_tables_are_the_written_arrays_that_keep_their_size():
    assert small_tables(ARGS, (64,)) == {"hist": 8, "cnt": 8, "peak": 4}  # own/first grow with the launch


def test_a_table_over_the_limit_is_not_small():
    big = arr("hist", role="output", shape=(SMALL_TABLE + 1,))
    assert small_tables([big], (64,)) == {}


def test_unused_adds_on_small_tables_are_aggregated_the_rest_stay_plain():
    code = translate_kernel(HIST, "hist_k", "h.py", TABLES).kernel_code
    assert "warp_atomic_add(&hist[idx[i]], x);" in code
    assert "warp_atomic_add(&cnt[i % 4], 1);" in code
    assert "atomicAdd(&own[i], x);" in code  # not a small table
    assert "int old = atomicAdd(&cnt[4], 1);" in code  # its old value is used


def test_min_and_max_keep_their_early_exit_instead_of_aggregating():
    code = translate_kernel(HIST, "hist_k", "h.py", TABLES).kernel_code
    assert "atomicMaxInt(&cnt[idx[i]], i);" in code
    assert "atomicMinFloat(&peak[i % 2], x);" in code
    assert "warp_atomic_min" not in code and "warp_atomic_max" not in code


def test_without_small_tables_no_atomic_is_aggregated():
    assert "warp_atomic" not in translate_kernel(HIST, "hist_k", "h.py").kernel_code


def test_aggregated_sample_equals_warp(tmp_path):
    s = spec("hist_k", HIST, ARGS)
    expected = warp_reference([s], "test_warp_atomics")["hist_k"]
    # `first` holds the old value of a contended counter: thread-order dependent, so it is checked
    # here only through the host's sequential order, which Warp's CPU run shares.
    run = run_sample(tmp_path, s, expected)
    assert run.passed, run.output


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")
def test_aggregated_sample_compiles_with_nvcc(tmp_path):
    s = spec("hist_k", HIST, ARGS)
    kernel = translate_kernel(HIST, "hist_k", "h.py", small_tables(ARGS, (64,)))
    folder = write_sample(tmp_path / "hist_k", kernel, HIST, sample_args(s), s.dim, input_seed(s), Tolerance(),
                          None, {"category": "test", "description": "aggregated atomics"})
    result = validate_samples([(folder / "hist_k.cu", "hist_k")])[0]
    assert result.status == "ok", result
