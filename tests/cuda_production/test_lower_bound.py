"""wp.lower_bound: translated as Warp's own binary search, so even an unsorted array gives Warp's index.

Each kernel runs through Warp on the CPU and as its .cu on the host; the arrays are the hashed inputs
(unsorted), where any other search (a linear scan, std::lower_bound's half-open range) would differ.
"""
from __future__ import annotations

import pytest

from cuda_production.reference import warp_reference
from cuda_production.translator import TranslationError, translate_kernel
from tests.cuda_production.harness import arr, run_sample, scal, spec

WHOLE = spec("search_whole", '''
@wp.kernel
def search_whole(cdf: wp.array(dtype=float), u: wp.array(dtype=float), found: wp.array(dtype=int)):
    tid = wp.tid()
    found[tid] = wp.lower_bound(cdf, u[tid])
''', [arr("cdf", shape=(97,), low=0.0, high=1.0), arr("u", low=-0.5, high=1.5),
      arr("found", "int32", "output", bound=97.0)])

RANGE = spec("search_range", '''
@wp.kernel
def search_range(keys: wp.array(dtype=int), first: int, last: int, out: wp.array(dtype=int)):
    tid = wp.tid()
    out[tid] = wp.lower_bound(keys, first, last, tid)
''', [arr("keys", "int32", shape=(50,), low=0, high=63), scal("first", "int32", 5), scal("last", "int32", 40),
      arr("out", "int32", "output", bound=50.0)])

CASES = [WHOLE, RANGE]


@pytest.fixture(scope="module")
def warp_results():
    return warp_reference(CASES, "test_lower_bound")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_lower_bound_equals_warp_on_the_host(case, warp_results, tmp_path):
    run = run_sample(tmp_path, case, warp_results[case.name])
    assert run.compiled, run.output
    assert run.passed, run.output


def test_the_whole_array_is_searched_over_its_passed_extent():
    kernel = translate_kernel(WHOLE.source, "search_whole", "search_whole.py")
    assert "lower_bound(cdf, 0, cdf_dim0, u[tid])" in kernel.kernel_code
    assert "int cdf_dim0" in kernel.kernel_code


def test_a_value_of_another_type_than_the_array_is_refused():
    source = WHOLE.source.replace("u: wp.array(dtype=float)", "u: wp.array(dtype=int)")
    with pytest.raises(TranslationError, match="wp.lower_bound's value: type int32 where float32 is expected"):
        translate_kernel(source, "search_whole", "k.py")
