"""The order-aware check of scripts/compare_warp_gpu.py: the magnitude kernel's AST rewrite, its
refusals, its results (sum|x_i|, the exact sum, the term counts) on Warp's CPU against numpy, and
compare() accepting an accumulated element as accurate as Warp's and rejecting a less accurate one."""
from __future__ import annotations

import ast
import sys
import textwrap

import numpy as np
import pytest

from cuda_production.reference import make_input, warp_arguments
from scripts.compare_warp_gpu import (ACCURACY_FACTOR, UNIT_ROUNDOFF, ExactSums, Magnitudes, compare, exact_sums,
                                      magnitude_kernel, magnitudes)
from synthesis.spec import ArgSpec


def kernel_source(signature: str, body: str) -> str:
    return (f"import warp as wp\n\n\n@wp.kernel\ndef k({signature}):\n"
            + textwrap.indent(textwrap.dedent(body).strip() + "\n", "    "))


def statements(source: str) -> list[str]:
    """The kernel body of `source`, one unparsed statement per entry (nested ones included)."""
    kernel = next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == "k")
    return [ast.unparse(n) for s in kernel.body for n in ast.walk(s) if isinstance(n, ast.stmt) and n is not kernel]


def same(code: str) -> str:
    """`code` as ast.unparse spells it, so expectations do not depend on spacing or parentheses."""
    return ast.unparse(ast.parse(code))


X = ArgSpec("x", "float32", "input", (64,))
TOTAL = ArgSpec("total", "float32", "output", (4,))
SIGNATURE = "x: wp.array(dtype=float), total: wp.array(dtype=float)"


def rewrite(body: str, signature: str = SIGNATURE, args: tuple[ArgSpec, ...] = (TOTAL,)):
    return magnitude_kernel(kernel_source(signature, body), "k", {a.name: a for a in args})


def test_atomic_add_adds_the_magnitude_and_the_signed_term_in_float64_and_counts_it():
    result = rewrite("i = wp.tid()\nwp.atomic_add(total, i % 4, x[i] * 2.0)")
    assert result.derived == ("total",)
    assert statements(result.source)[1:] == [same("_order_term_0 = x[i] * 2.0"),
                                             same("wp.atomic_add(total, i % 4, wp.float64(wp.abs(_order_term_0)))"),
                                             same("wp.atomic_add(total__exact, i % 4, wp.float64(_order_term_0))"),
                                             same("wp.atomic_add(total__terms, i % 4, wp.float64(1.0))")]


def test_atomic_sub_adds_the_magnitude_and_subtracts_the_signed_term():
    result = rewrite("i = wp.tid()\nwp.atomic_sub(total, 0, x[i])")
    assert statements(result.source)[1:] == [same("_order_term_0 = x[i]"),
                                             same("wp.atomic_add(total, 0, wp.float64(wp.abs(_order_term_0)))"),
                                             same("wp.atomic_sub(total__exact, 0, wp.float64(_order_term_0))"),
                                             same("wp.atomic_add(total__terms, 0, wp.float64(1.0))")]


@pytest.mark.parametrize("operator", ["+=", "-="])
def test_augmented_assignment_adds_the_magnitude_and_keeps_the_sign(operator):
    result = rewrite(f"i = wp.tid()\ntotal[i % 4] {operator} x[i]")
    assert statements(result.source)[1:] == [same("_order_term_0 = x[i]"),
                                             same("total[i % 4] += wp.float64(wp.abs(_order_term_0))"),
                                             same(f"total__exact[i % 4] {operator} wp.float64(_order_term_0)"),
                                             same("total__terms[i % 4] += wp.float64(1.0)")]


def test_signature_holds_float64_magnitudes_and_term_counts():
    source = rewrite("i = wp.tid()\ntotal[0] += x[i]").source
    kernel = next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef))
    assert [(a.arg, ast.unparse(a.annotation)) for a in kernel.args.args] == [
        ("x", "wp.array(dtype=float)"), ("total", "wp.array(dtype=wp.float64, ndim=1)"),
        ("total__terms", "wp.array(dtype=wp.float64, ndim=1)"), ("total__exact", "wp.array(dtype=wp.float64, ndim=1)")]


def test_vector_terms_use_the_element_wise_abs_in_float64():
    v = ArgSpec("v", "vec3", "input", (64,))
    forces = ArgSpec("forces", "vec3", "inout", (8,))
    result = rewrite("i = wp.tid()\nforces[i % 8] -= v[i]", "v: wp.array(dtype=wp.vec3), forces: wp.array(dtype=wp.vec3)",
                     (forces,))
    assert statements(result.source)[1:4] == [same("_order_term_0 = v[i]"),
                                              same("forces[i % 8] += wp.vec3d(wp.abs(_order_term_0))"),
                                              same("forces__exact[i % 8] -= wp.vec3d(_order_term_0)")]


def test_an_index_with_a_read_is_evaluated_once():
    idx = "idx: wp.array(dtype=int), " + SIGNATURE
    result = rewrite("i = wp.tid()\nwp.atomic_add(total, idx[i], x[i])", idx)
    assert statements(result.source)[1:3] == [same("_order_index_0 = idx[i]"), same("_order_term_1 = x[i]")]
    assert all("_order_index_0" in s for s in statements(result.source)[3:])


def test_tile_atomic_add_adds_the_tile_of_magnitudes_at_the_same_offset():
    result = rewrite("i = wp.tid()\nt = wp.tile_load(x, shape=(16,), offset=i * 16)\n"
                     "wp.tile_atomic_add(total, wp.tile_sum(t), offset=i % 4)")
    assert statements(result.source)[2:] == [
        same("_order_tile_0 = wp.tile_sum(t)"),
        same("wp.tile_atomic_add(total, wp.tile_map(_order_abs64, _order_tile_0), offset=i % 4)"),
        same("wp.tile_atomic_add(total__exact, wp.tile_map(_order_f64, _order_tile_0), offset=i % 4)"),
        same("wp.tile_atomic_add(total__terms, wp.tile_map(_order_one64, _order_tile_0), offset=i % 4)")]


@pytest.mark.parametrize(("body", "reason"), [
    ("i = wp.tid()\ntotal[0] = 0.0\nwp.atomic_add(total, 0, x[i])", "plain store"),
    ("i = wp.tid()\nold = wp.atomic_add(total, 0, x[i])", "uses the value"),
    ("i = wp.tid()\ntotal[0] += total[1] * x[i]", "also read"),
    ("i = wp.tid()\ntotal[0] += x[i]\ntotal[0] *= 2.0", "updated by"),
])
def test_refuses_what_it_cannot_rewrite_safely(body, reason):
    result = rewrite(body)
    assert result.source is None and result.derived == ()
    assert reason in result.refused["total"]


def test_an_array_only_scaled_in_place_is_not_an_accumulation():
    result = rewrite("i = wp.tid()\ntotal[i % 4] = x[i]\ntotal[i % 4] *= 2.0")
    assert result.refused == {} and result.derived == ()


def test_refuses_matrices_whose_abs_is_not_element_wise():
    m = ArgSpec("m", "mat22", "output", (1,))
    result = rewrite("i = wp.tid()\nm[0] += wp.mat22(x[i], 0.0, 0.0, x[i])",
                     "x: wp.array(dtype=float), m: wp.array(dtype=wp.mat22)", (m,))
    assert "not element-wise" in result.refused["m"]


N = 2**16
SUM_SIGNATURE = "x: wp.array(dtype=float), total: wp.array(dtype=float), acc: wp.array(dtype=float)"
SUM_BODY = "i = wp.tid()\nwp.atomic_add(total, 0, x[i] * 1.37)\nacc[0] -= x[i] * 1.37"
SUM_ARGS = [ArgSpec("x", "float32", "input", (N,), low=-3.0, high=2.0),
            ArgSpec("total", "float32", "output", (1,)), ArgSpec("acc", "float32", "inout", (1,))]
SEED = 12345


@pytest.fixture(scope="module")
def summed():
    """The magnitude kernel and the real kernel of SUM_BODY on Warp's CPU over 2**16 threads, and the
    float32 terms as numpy computes them (one correctly rounded multiply, as Warp's)."""
    import warp as wp

    from extraction.loader import load_kernels, unload

    source = kernel_source(SUM_SIGNATURE, SUM_BODY)
    found = magnitudes(wp, source, "k", SUM_ARGS, (N,), SEED, device="cpu")
    kernel = load_kernels(source, "test_order_sum")["k"]
    try:
        launch_args, written = warp_arguments(SUM_ARGS, sys.modules["test_order_sum"], SEED, "cpu")
        wp.launch(kernel, dim=N, inputs=launch_args, device="cpu")
        results = {a.name: w.numpy().reshape(-1) for a, w in zip(SUM_ARGS[1:], written)}
    finally:
        unload("test_order_sum")
    terms = make_input(SUM_ARGS[0], 0, SEED) * np.float32(1.37)
    start = make_input(SUM_ARGS[2], 2, SEED)
    return found, results, terms, start


def test_magnitude_kernel_sums_the_absolute_terms(summed):
    found, _, terms, start = summed
    want = np.abs(terms.astype(np.float64)).sum()
    assert found.refused == {}
    assert found.sums["total"][0] == pytest.approx(want, rel=1e-12)
    assert found.sums["acc"][0] == pytest.approx(want + abs(float(start[0])), rel=1e-12)


def test_rounded_additions_are_counted_per_element(summed):
    found = summed[0]
    assert found.additions["total"].tolist() == [N - 1]  # an output starts at zero: its first addition is exact
    assert found.additions["acc"].tolist() == [N]  # an inout array starts from its input


def test_exact_sum_is_the_float64_sum_of_the_signed_terms(summed):
    """Every partial sum below is a multiple of 2**-34 under 2**17: numpy's float64 sum is exact."""
    found, _, terms, start = summed
    assert found.exact["total"][0] == terms.astype(np.float64).sum()
    assert found.exact["acc"][0] == float(start[0]) - terms.astype(np.float64).sum()


def test_the_float32_sums_pass_as_accurate_as_themselves_and_lose_a_dropped_block(summed):
    """Warp's own float32 sums against themselves: accepted; the same sums missing one block of 64
    threads' terms (what a translation that skips a block would write): rejected, although the
    block's sum is far inside the worst-case order bound 2 (n - 1) u sum|x_i|."""
    found, results, terms, _ = summed
    order = exact_sums(SUM_ARGS, found)
    written, want = SUM_ARGS[1:], [results["total"], results["acc"]]
    bounds = {"total": 1.0, "acc": 1.0}
    assert compare(dump([results["total"][0], results["acc"][0]]), want, written, bounds, 1e-6, 1e-6, order)[0] == 0
    block = float(terms[:64].astype(np.float64).sum())
    assert abs(block) < 2 * (N - 1) * UNIT_ROUNDOFF["float32"] * found.sums["total"][0] / 10
    skipped = dump([results["total"][0] - block, results["acc"][0]])
    assert compare(skipped, want, written, bounds, 1e-6, 1e-6, order)[0] == 1


WRITTEN = [ArgSpec("total", "float32", "output", (1,), bound=1.0), ArgSpec("plain", "float32", "output", (1,), bound=1.0)]
BOUNDS = {"total": 1.0, "plain": 1.0}


def dump(values: list[float]) -> bytes:
    return np.array(values, dtype=np.float32).tobytes()


def sums_at(exact: float, typical: float = 0.0) -> dict[str, ExactSums]:
    return {"total": ExactSums(np.array([exact]), np.array([0.0]), np.array([typical]))}


def test_compare_accepts_an_element_as_accurate_as_warps():
    want = [np.array([1000.0], np.float32), np.array([1000.0], np.float32)]
    # Warp is 1 from the exact sum; the .cu 3 on the other side (today's rule alone allows 1e-4 + 0.1)
    assert compare(dump([1004.0, 1000.0]), want, WRITTEN, BOUNDS, 1e-4, 1e-4, sums_at(1001.0))[0] == 0
    assert compare(dump([1004.0, 1000.0]), want, WRITTEN, BOUNDS, 1e-4, 1e-4)[0] == 1


def test_compare_rejects_an_element_less_accurate_than_warps():
    want = [np.array([1000.0], np.float32), np.array([1000.0], np.float32)]
    far = 1001.0 + ACCURACY_FACTOR * 1.0 + 2.0  # beyond ACCURACY_FACTOR times Warp's distance of 1
    assert compare(dump([far, 1000.0]), want, WRITTEN, BOUNDS, 1e-4, 1e-4, sums_at(1001.0))[0] == 1
    # an array without an exact sum keeps today's rule
    assert compare(dump([1000.0, 1000.5]), want, WRITTEN, BOUNDS, 1e-4, 1e-4, sums_at(1001.0))[0] == 1


def test_typical_rounding_floors_a_lucky_warp():
    want = [np.array([1000.0], np.float32), np.array([1000.0], np.float32)]
    # Warp lands on the exact sum; the .cu is 2 away, inside 4 x the typical rounding of 1
    assert compare(dump([1002.0, 1000.0]), want, WRITTEN, BOUNDS, 1e-4, 1e-4, sums_at(1000.0, typical=1.0))[0] == 0
    assert compare(dump([1002.0, 1000.0]), want, WRITTEN, BOUNDS, 1e-4, 1e-4, sums_at(1000.0, typical=0.1))[0] == 1


def test_unit_roundoff_is_half_an_ulp_of_one():
    for name, u in UNIT_ROUNDOFF.items():
        # bfloat16, which numpy lacks: 8 significant bits, so an ulp of one is 2**-7
        assert u == (2.0**-7 if name == "bfloat16" else float(np.finfo(name).eps)) / 2


def test_no_exact_sum_for_a_non_finite_magnitude():
    found = Magnitudes(sums={"total": np.array([np.inf, 4.0])}, exact={"total": np.array([1.0, -2.0])},
                       additions={"total": np.array([3.0, 3.0])})
    sums = exact_sums([ArgSpec("total", "float32", "output", (2,))], found)["total"]
    assert np.isnan(sums.exact[0]) and sums.exact[1] == -2.0
    assert sums.typical[1] == pytest.approx(3.0**0.5 * 2.0**-24 * 4.0)


def test_a_half_output_is_compared_at_the_samples_half_tolerance():
    """A half rounded from float32 values one bit apart lands a half's ulp away (0.7754 / 0.776): the
    sample's own check allows it at float16's tolerance, and so does the comparison with Warp."""
    from scripts.compare_warp_gpu import sample_tolerances

    written = [ArgSpec("weights_half", "float16", "output", (2,), bound=1.0)]
    want = [np.array([-0.776, 0.5], np.float16)]
    got = np.array([-0.7754, 0.5], np.float16).tobytes()
    meta = {"tolerance": {"atol": 1e-4, "rtol": 1e-4}, "tolerance_float16": {"atol": 1e-2, "rtol": 1e-2}}
    assert compare(got, want, written, {"weights_half": 1.0}, 1e-4, 1e-4)[0] == 1
    assert compare(got, want, written, {"weights_half": 1.0}, 1e-4, 1e-4, wide=sample_tolerances(meta))[0] == 0
    far = np.array([-0.75, 0.5], np.float16).tobytes()  # 0.026 away: beyond it
    assert compare(far, want, written, {"weights_half": 1.0}, 1e-4, 1e-4, wide=sample_tolerances(meta))[0] == 1
