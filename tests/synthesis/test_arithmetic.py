"""The plain formula kernels of arithmetic (synthesis/categories/arithmetic.py): how many values one holds."""
from __future__ import annotations

from synthesis.categories import arithmetic, bits, generate, quantized
from synthesis.spec import KernelSpec


def formula_kernels(count: int) -> list[tuple[int, KernelSpec]]:
    seeds = [s for s in range(6 * count) if not bits.chooses_bits(s) and not quantized.chooses_quantized(s)]
    return [(s, generate("arithmetic", s)) for s in seeds[:count]]


def test_a_formula_kernel_rarely_computes_a_single_value():
    """One value alone (`lane[tid] = p & 31`) is a kernel repeated seed after seed; most hold two or more."""
    specs = [spec for _, spec in formula_kernels(300) if "@wp.func" not in spec.source]
    single = sum(1 for spec in specs if sum(a.role in ("output", "inout") for a in spec.args) == 1)
    assert single / len(specs) < 0.12


def test_kernels_whose_count_is_not_raised_keep_their_draws(monkeypatch):
    kept = [(s, spec.source) for s, spec in formula_kernels(120) if arithmetic.more_formulas(s, 2) == 2
            and arithmetic.more_formulas(s, 1) == 1 and arithmetic.more_formulas(s, 3) == 3]
    assert kept
    monkeypatch.setattr(arithmetic, "more_formulas", lambda seed, count: count)
    assert [generate("arithmetic", s).source for s, _ in kept] == [source for _, source in kept]
