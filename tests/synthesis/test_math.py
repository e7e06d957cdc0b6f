"""The math category's special formulas (synthesis.categories.math): the inverse trigonometric,
rounding and other-base builtins real code calls, drawn from a stream of their own."""
from __future__ import annotations

import re

from synthesis.categories import generate, math as math_category
from synthesis.exprgen import SPECIAL_MATH_FORMULAS
from tests.synthesis.shares import assert_others_keep_their_draws

# The builtin call that writes each special formula, as the kernel's source spells it.
CALL_OF = {"angle from a cosine": r"wp\.acos\(wp\.clamp\(", "angle from a sine": r"wp\.asin\(wp\.clamp\(",
           "arctangent soft limit": r"wp\.atan\(", "frustum height": r"wp\.tan\(0\.5 \* ",
           "round up to a multiple": r"wp\.ceil\(", "snap to a grid": r"wp\.round\(",
           "fractional part toward zero": r"wp\.trunc\(", "log2 compression": r"wp\.log2\(",
           "decibels": r"wp\.log10\(", "sphere radius from a volume": r"wp\.cbrt\("}


def test_a_chosen_special_formula_is_in_the_kernel_and_its_description():
    chosen = {}
    for seed in range(300):
        kind = math_category.special_formula_of(seed)
        if kind is None:
            continue
        spec = generate("math", seed)
        assert kind in spec.description and re.search(CALL_OF[kind], spec.source), (seed, kind, spec.source)
        chosen[kind] = chosen.get(kind, 0) + 1
    assert set(chosen) == set(SPECIAL_MATH_FORMULAS) == set(CALL_OF)
    assert 0.3 * 300 <= sum(chosen.values()) <= 0.5 * 300  # SPECIAL_SHARE of the kernels


def test_a_kernel_without_a_special_formula_calls_none_of_their_builtins():
    seeds = [s for s in range(200) if math_category.special_formula_of(s) is None][:60]
    for seed in seeds:
        source = generate("math", seed).source
        assert not re.search(r"wp\.(acos|asin|atan|tan|ceil|round|trunc|log2|log10|cbrt)\(", source), source


def test_other_math_kernels_keep_their_draws(monkeypatch):
    """Whether a math kernel computes a special formula comes from a stream of its own: the other
    seeds draw exactly what they draw with the special formulas switched off."""
    assert_others_keep_their_draws(monkeypatch, "math", math_category, "special_formula_of")


TWO_OPERANDS = re.compile(r"wp\.sqrt\(0\.5 \* \((\w+) \* \1 \+ (\w+) \* \2\)\)|wp\.sqrt\((\w+) \* \3 \+ (\w+) \* \4\)")


def test_a_two_value_formula_pairs_values_of_one_place_or_one_field():
    """A hypotenuse or RMS over two loaded values takes two fields at the thread's own element (two
    components) or one field at two places (a value and its neighbour), never another field's
    neighbour beside this field's element (`src[tid]` with `a[tid - 1]`)."""
    pairs = 0
    for seed in range(1200):
        source = generate("math", seed).source
        loaded = dict(re.findall(r"^\s+(\w+) = (\w+)\[[^\]]*\]$", source, re.M))
        own = set(re.findall(r"^\s+(\w+) = \w+\[(?:tid|i, j|i, j, k)\]$", source, re.M))
        for m in TWO_OPERANDS.finditer(source):
            a, b = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            if a in loaded and b in loaded:
                pairs += 1
                assert loaded[a] == loaded[b] or (a in own) == (b in own), source
    assert pairs >= 40
