"""The math category (synthesis.categories.math): a purpose per kernel (its theme), and the special
formulas (the inverse trigonometric, rounding and other-base builtins real code calls), drawn from a
stream of their own."""
from __future__ import annotations

import re
from collections import Counter

from synthesis.categories import generate, math as math_category
from synthesis.categories.common import OUTPUT_NAMES
from synthesis.categories.math import MATH_HELPERS
from synthesis.exprgen import MATH_FORMULAS, SPECIAL_MATH_FORMULAS
from tests.synthesis.shares import assert_others_keep_their_draws

# The builtin call that writes each special formula, as the kernel's source spells it.
CALL_OF = {"angle from a cosine": r"wp\.acos\(wp\.clamp\(", "angle from a sine": r"wp\.asin\(wp\.clamp\(",
           "arctangent soft limit": r"wp\.atan\(", "frustum height": r"wp\.tan\(0\.5 \* ",
           "round up to a multiple": r"wp\.ceil\(", "snap to a grid": r"wp\.round\(",
           "fractional part toward zero": r"wp\.trunc\(", "log2 compression": r"wp\.log2\(",
           "decibels": r"wp\.log10\(", "sphere radius from a volume": r"wp\.cbrt\(|wp\.pow\(3\.0 \* wp\.abs\("}


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
    assert 0.15 * 300 <= sum(chosen.values()) <= 0.35 * 300  # SPECIAL_SHARE of the kernels


def _theme_and_parts(spec) -> tuple[str, list[str], list[str]]:
    """(theme, formulas, helpers) a math kernel's description names."""
    theme = re.match(r"Math-function kernel for (.+?) \(", spec.description).group(1)
    features = spec.description.split(" (", 1)[1].rstrip(")").split("; ")
    kinds = [f for f in features if f in MATH_FORMULAS or f in SPECIAL_MATH_FORMULAS]
    helpers = [h for h in MATH_HELPERS if h.replace("_", " ") in spec.description]
    return theme, kinds, helpers


def test_every_formula_and_helper_of_a_kernel_serves_its_theme():
    """One purpose per kernel: a fractional part, an angle and a noise sample of unrelated values side by
    side is the generator's tell, not a kernel a person writes."""
    themes = Counter()
    for seed in range(400):
        spec = generate("math", seed)
        theme, kinds, helpers = _theme_and_parts(spec)
        allowed = math_category.MATH_THEMES[theme]
        assert set(kinds) <= set(allowed.formulas) and set(helpers) <= set(allowed.helpers), (theme, spec.source)
        assert "wp.noise(" not in spec.source or allowed.noise_share > 0, spec.source
        themes[theme] += 1
    assert set(themes) == set(math_category.MATH_THEMES)


def test_no_kernel_computes_one_quantity_two_ways():
    for seed in range(400):
        spec = generate("math", seed)
        _, kinds, helpers = _theme_and_parts(spec)
        for alike in math_category.SAME_QUANTITY:
            assert len(alike & set(kinds + helpers)) <= 1, spec.source


def test_a_fed_formula_reads_the_earlier_result_it_takes():
    """A level in decibels of a root mean square reads the named RMS that its own output stores, never the
    inputs again; the named result is read by its output and by the formula it feeds."""
    fed = 0
    for seed in range(1500):
        source = generate("math", seed).source
        for consumer, sources in math_category.FED_BY.items():
            for producer in sources:
                local = OUTPUT_NAMES[producer][0]
                if not re.search(rf"^\s+{local} = ", source, re.M):
                    continue
                reads = len(re.findall(rf"(?<![\w.]){local}(?!\w)", source)) - 1  # less its definition
                assert reads >= 2, source
                fed += 1
    assert fed >= 40


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


def test_an_angle_is_converted_to_degrees_only_once_computed():
    """`wp.degrees` of an angle a formula computed (an arccosine, a polar angle), never of a raw value."""
    converted = 0
    for seed in range(1500):
        source = generate("math", seed).source
        for argument in re.findall(r"wp\.degrees\((\w+)\)", source):
            assert re.search(rf"^\s+{argument} = wp\.(acos|asin|atan2)\(", source, re.M), source
            converted += 1
    assert converted >= 10


def test_no_exponential_of_a_grid_coordinate():
    """A grid coordinate's bound holds at the check's launch only: a benchmark's launch takes `fx` to
    thousands, and `wp.exp(fx)` (a soft maximum) or `wp.pow(10.0, fx / 20.0)` to infinity."""
    for seed in range(2000):
        source = generate("math", seed).source
        for coordinate in re.findall(r"^\s+((?:px|cx|fx|py|cy|fy)\w*) = ", source, re.M):
            assert not re.search(rf"wp\.exp\({coordinate}\)|wp\.pow\(10\.0, {coordinate} ", source), source


# The operands of the formulas whose operands are a quantity (exprgen.OPERAND_QUANTITY), as written.
QUANTITY_OPERANDS = {
    "volume": [r"wp\.cbrt\(0\.75 \* wp\.abs\((\w+)\) / wp\.pi\)"],
    "length": [r"wp\.pi \* (\w+) \* (\w+)\b(?! \*)", r"2\.0 \* (\w+) \* wp\.tan\(0\.5 \* ",
               r"wp\.sqrt\((\w+) \* \1 \+ (\w+) \* \2\)", r"2\.0 \* wp\.pi \* (\w+)",
               r"wp\.pi \* (\w+) \* \1 \* (\w+)", r"(\w+) = wp\.abs\((\w+)\)\n.*4\.0 \* wp\.pi \* \1 \* \1 \* \1"],
    "ratio": [r"wp\.a(?:cos|sin)\(wp\.clamp\((\w+), -1\.0, 1\.0\)\)"],
    "level": [r"wp\.pow\(10\.0, (\w+) / 20\.0\)"],
}


def test_a_value_is_read_as_one_quantity():
    """A value a formula takes as a volume is not also a radius, a cosine not a leg of a hypotenuse, a
    level in decibels not a length: each value of a math kernel is read as one quantity."""
    checked = 0
    for seed in range(3000):
        source = generate("math", seed).source
        quantities: dict[str, set[str]] = {}
        for quantity, patterns in QUANTITY_OPERANDS.items():
            for pattern in patterns:
                for m in re.finditer(pattern, source):
                    for name in m.groups():
                        if name and not name.replace(".", "").isdigit() and name != "wp":
                            quantities.setdefault(name, set()).add(quantity)
        checked += len(quantities) > 1
        assert not any(len(q) > 1 for q in quantities.values()), source
    assert checked >= 100


SIZES = ("frustum height", "circle area", "ellipse area", "sphere surface area", "sphere volume", "circumference",
         "cylinder volume", "sphere radius from a volume", "hypotenuse")


def test_a_size_is_never_negative():
    """A circumference, a view height, an area or a volume of a signed input takes its magnitude (session
    59 found `perimeter = 2.0 * wp.pi * u_v` beside `r = wp.abs(u_v)`: negative for half the inputs). Each
    kernel of the sizes theme is run in Python over inputs of both signs; the outputs it stores as a size
    (by their names, the first of each formula's OUTPUT_NAMES) are never negative."""
    from tests.synthesis.python_run import draw_inputs, run

    names = {n for kind in SIZES for n in OUTPUT_NAMES[kind] if n not in ("extent",)}
    checked = 0
    for seed in range(400):
        spec = generate("math", seed)
        if "for sizes" not in spec.description:
            continue
        inputs = draw_inputs(spec, seed)
        if not any((v < 0).any() for k, v in inputs.items()):
            continue
        got = run(spec, inputs)
        for name, values in got.items():
            if name.rstrip("0123456789") in names:
                assert (values >= 0.0).all(), spec.source
                checked += 1
    assert checked >= 40
