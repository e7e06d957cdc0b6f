"""synthesis.exprgen: the name scanner the writer's pruning and `varies` rely on."""
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synthesis.exprgen import NAME_TOKEN, absorbs, never_negative

# The definition NAME_TOKEN is a faster spelling of: a name not preceded by a word character or a dot.
NAME_NOT_ATTRIBUTE = re.compile(r"(?<![.\w])[A-Za-z_]\w*")


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(alphabet="ab_Z09 .+-*()[],=\n\té", max_size=40))
def test_name_token_finds_what_the_look_behind_first_pattern_finds(text):
    assert NAME_TOKEN.findall(text) == NAME_NOT_ATTRIBUTE.findall(text)


def test_name_token_skips_attributes_and_word_tails():
    assert NAME_TOKEN.findall("v2 = wp.sin(a.x) + 3e5 + b_1") == ["v2", "wp", "a", "b_1"]


def _chain_writer(levels: int):
    """A writer whose local v<levels> is tid + 1 + 1 + ... through `levels` locals, and a load a_v."""
    import random

    from synthesis.exprgen import Expr, KernelWriter

    w = KernelWriter(random.Random(0), "k", "test", 0, (64,))
    w.add_array("a", "float32", "input", low=0.0, high=1.0)
    w.load("a")
    value = Expr("tid", "int32", 64.0)
    for _ in range(levels):
        value = w.assign(Expr(f"{value.src} + 1", "int32", value.mag + 1.0, 0, atom=False))
    return w, value.src


def test_an_or_of_judged_conditions_is_judged_as_when_evaluated_whole():
    """launch_constant combines the values of conditions it judged already; near and past the
    evaluator's depth limit (deep chains of locals) it must still answer what a whole evaluation
    answers (there the operand, one level deeper, is cut short)."""
    from synthesis.normalize import parse_expression
    from synthesis.realism import is_constant

    for levels in range(14, 24):
        w, last = _chain_writer(levels)
        a, b = f"{last} >= 1", "a_v > 0.5"  # a holds everywhere (while evaluated whole), b varies
        w.launch_constant(a), w.launch_constant(b)
        for combined, parts in ((f"({a}) or ({b})", ("or", a, b)), (f"({a}) and ({b})", ("and", a, b)),
                                (f"not ({a})", ("not", a))):
            whole = is_constant(w._launch_cache[1], parse_expression(combined), share=0.95)
            assert w.launch_constant(combined, parts) == whole, (levels, combined)


# ---- statement_tree: drop_dead_stores' tree from the writer's lines, against the parser's ----------
_VALUES = ["float(0.0)", "-1.5", "int(3)", "wp.float32(2.0)", "True", "x * 2.0", "wp.sin(r1) + r2",
           "float(tid)", "max(r2, x)", "r1 if x > 0.0 else r2", "not r1", "x.y + 1e-3", "a[tid] - r1"]
_TESTS = ["x > 0.0", "r1 < r2 and x >= 1.0", "not (r2 == 3.0)", "tid % 2 == 0", "wp.abs(r1) <= 0.5"]


@st.composite
def _writer_body(draw, depth=0, indent=1):
    """Lines as the writer emits them: assignments (to names, a pair of names, an element), returns
    and if/elif/else chains nesting up to two deep."""
    lines = []
    pad = "    " * indent
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["assign", "assign", "store", "chain", "return"] if depth < 2
                                    else ["assign", "assign", "store", "return"]))
        if kind == "assign":
            lines.append(f"{pad}{draw(st.sampled_from(['r1', 'r2', 'x', 'x, r2']))} = {draw(st.sampled_from(_VALUES))}")
        elif kind == "store":
            lines.append(f"{pad}{draw(st.sampled_from(['out[tid]', 'out[i, j]']))} = {draw(st.sampled_from(_VALUES))}")
        elif kind == "return":
            lines.append(f"{pad}return")
        else:
            for arm in range(draw(st.integers(1, 3))):
                lines.append(f"{pad}{'if' if arm == 0 else 'elif'} {draw(st.sampled_from(_TESTS))}:")
                lines += draw(_writer_body(depth + 1, indent + 1))
            if draw(st.booleans()):
                lines.append(f"{pad}else:")
                lines += draw(_writer_body(depth + 1, indent + 1))
    return lines


_KEYWORDS = {"and", "or", "not", "if", "else", "True", "False", "None"}


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_writer_body())
def test_statement_tree_finds_the_dead_stores_the_parsed_tree_gives(lines):
    import ast

    from synthesis import realism
    from synthesis.exprgen import statement_tree

    fn = ast.parse("def kernel():\n" + "\n".join(lines)).body[0]
    parsed_reads = realism.StatementReads(fn)
    tree = statement_tree(lines)
    assert tree is not None
    built, built_reads = tree
    assert [s.lineno for s in realism.dead_value_statements(built, built_reads)] == \
        [s.lineno for s in realism.dead_value_statements(fn, parsed_reads)]
    # the same blocks of the same statements, each loading the same names (keywords, which no local
    # is named, aside)
    assert [[(type(s), s.lineno, built_reads.reads(s) - _KEYWORDS) for s in block] for block in realism._blocks(built.body)] == \
        [[(type(s), s.lineno, parsed_reads.reads(s)) for s in block] for block in realism._blocks(fn.body)]
    assert built_reads.all_reads() - _KEYWORDS == parsed_reads.all_reads()


def test_statement_tree_leaves_other_shapes_to_the_parser():
    from synthesis.exprgen import statement_tree

    assert statement_tree(["    x = 1.0", "    if x > 0.0:", "        x = 2.0"]) is not None
    assert statement_tree(["    x = 1.0", "    for k in range(3):", "        x = 2.0"]) is None
    for line in ("    r1 += 1.0", "    r1 = f(a=1)", "    r1 = 'a'", "    r1 = [k for k in x]",
                 "    r1 = r2 = 0.0", "    pass", "    a[b[tid]] = 1.0", "    r1 = x[1:2]"):
        assert statement_tree(["    x = 1.0", line]) is None, line


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["<", "<=", ">", ">=", "==", "!="]))
def test_a_noted_comparison_has_the_tree_the_parser_gives(seed, op):
    """note_comparison builds `a op b` from its operands' trees (names and numbers directly): the
    tree must be the parsed text's, for operands as compare draws them."""
    import ast
    import random

    from synthesis.exprgen import ExprGen, KernelWriter

    w = KernelWriter(random.Random(seed), "k", "test", seed, (64,))
    w.add_array("a", "float32", "input")
    w.add_array("n", "int32", "input", low=0, high=9)
    gen = ExprGen(w, loads=["a", "n"])
    for depth in (0, 1, 2):
        a, b = (gen.float_expr(depth, exact=True), gen.float_expr(max(depth - 1, 0), exact=True)) if seed % 2 \
            else (gen.int_expr(depth), gen.int_expr(max(depth - 1, 0)))
        text = f"{a.src} {op} {b.src}"
        w.note_comparison(text, a.src, op, b.src)
        assert ast.dump(w._parsed_expr(text)) == ast.dump(ast.parse(text, mode="eval").body)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.text(alphabet="xyw p.()+-*0159", max_size=16), st.text(alphabet="xyw p.()+-*0159", max_size=16))
def test_same_names_is_the_union_of_each_sides_variables(a, b):
    from synthesis.exprgen import IDENTIFIER, _is_literal, _same_names

    kept = {"wp", "float", "int", "abs", "min", "max"}
    names_a, names_b = set(IDENTIFIER.findall(a)) - kept, set(IDENTIFIER.findall(b)) - kept
    assert _same_names(a, b) == (len(names_a | names_b) <= 1 and not (_is_literal(a) or _is_literal(b)))


@pytest.mark.parametrize("src,expected", [
    ("wp.sqrt(x)", True), ("wp.abs(a - b)", True), ("abs(a)", True), ("wp.exp(v1)", True), ("q_v * q_v", True),
    ("(a + b) * (a + b)", True), ("-a * -a", True), ("a * b", False), ("a * a + b", False), ("a * a * a", False),
    ("wp.abs(a) - 1.0", False), ("wp.sqrt(a) * b", False), ("wp.sin(x)", False)])
def test_never_negative_knows_calls_and_squares(src, expected):
    assert never_negative(src) is expected


@pytest.mark.parametrize("op,a,b,expected", [
    ("max", "wp.max(x, 0.5)", "x", True), ("max", "x", "max(y, x)", True), ("min", "wp.max(x, 0.5)", "x", False),
    ("max", "wp.max(x, 0.5)", "y", False), ("max", "wp.max(x, 0.5) + x", "x", False)])
def test_absorbs_finds_a_min_or_max_that_already_took_the_other_side(op, a, b, expected):
    assert absorbs(op, a, b) is expected


FORMULA_NAMES = {"sigmoid": "sigmoid", "softplus": "softplus", "relu": "ReLU", "leaky_relu": "leaky ReLU",
                 "gaussian": "Gaussian falloff", "softsign": "softsign", "smoothstep": "smoothstep"}


@pytest.mark.parametrize("op", sorted(FORMULA_NAMES))
def test_each_formula_is_written_as_its_features_name_it_and_parses(op):
    import ast
    import random
    import types

    import numpy as np

    from synthesis.exprgen import FORMULA_OPS, ExprGen, KernelWriter, formula_features

    assert set(FORMULA_OPS) == set(FORMULA_NAMES)
    w = KernelWriter(random.Random(1), "k", "test", 1, (64,))
    w.add_array("a", "float32", "input")
    gen = ExprGen(w, ("add", "mul"), loads=["a"])
    drawn = [e for e in (gen._float_op(op, 2) for _ in range(40)) if e is not None]
    assert drawn, f"{op} never drawn"
    # the recorded bound holds at every input value (the tolerances are derived from it)
    wp = types.SimpleNamespace(exp=np.exp, log=np.log, abs=np.abs, sqrt=np.sqrt, max=np.maximum, min=np.minimum,
                               where=np.where, clamp=np.clip, sin=np.sin, cos=np.cos, tanh=np.tanh, floor=np.floor,
                               ceil=np.ceil, pow=np.power, atan2=np.arctan2,
                               smoothstep=lambda lo, hi, x: (lambda t: t * t * (3 - 2 * t))(np.clip((x - lo) / (hi - lo), 0, 1)))
    names = {"wp": wp, "a_v": np.linspace(w.arg("a").low, w.arg("a").high, 64), "tid": np.arange(64), "float": lambda x: np.asarray(x, float),
             "max": np.maximum, "min": np.minimum, "abs": np.abs}
    for line in w.load_lines:  # the locals cached at the top that are not loads: grid coordinates
        local, value = line.strip().split(" = ", 1)
        if local not in names:
            names[local] = eval(value, names)
    for e in drawn:
        ast.parse(e.src, mode="eval")
        assert formula_features([e.src]) == [FORMULA_NAMES[op]]
        assert np.all(np.abs(eval(e.src, names)) <= e.mag + 1e-6), e


def _formula_function(kind: str, dtype: str, method: str):
    """(f(a, b, tid), the operand locals it reads) for `kind` drawn by ExprGen.`method` over two loaded
    arrays a and b: f runs the writer's statements and the formula in Python on the values given."""
    import math
    import random
    import types

    import numpy as np

    from synthesis.exprgen import ExprGen, KernelWriter

    wp = types.SimpleNamespace(abs=abs, max=max, min=min, sqrt=np.sqrt, exp=np.exp, log=np.log, sin=np.sin, cos=np.cos,
                               atan2=np.arctan2, pow=np.power, floor=np.floor, clamp=lambda x, lo, hi: min(max(x, lo), hi),
                               acos=math.acos, asin=math.asin, atan=math.atan, tan=math.tan, ceil=math.ceil,
                               trunc=math.trunc, log2=math.log2, log10=math.log10, cbrt=np.cbrt, pi=math.pi,
                               erf=math.erf, degrees=math.degrees,
                               # C's roundf: halves away from zero (Python's round takes them to even)
                               round=lambda x: math.copysign(math.floor(abs(x) + 0.5), x))
    for seed in range(40):
        w = KernelWriter(random.Random(seed), "k", "test", seed, (64,))
        low, high = (-100, 100) if dtype == "int32" else (-2.0, 2.0)
        w.add_array("a", dtype, "input", low=low, high=high)
        w.add_array("b", dtype, "input", low=low, high=high)
        gen = ExprGen(w, ("add", "mul"), loads=["a", "b"])
        drawn = getattr(gen, method)(kind)
        if drawn is None:
            continue
        e, name = drawn
        assert name == kind
        text = "\n".join(w.lines[1:] + [e.src])
        if kind not in ("exponential decay", "oscillation", "damped oscillation") and re.search(r"\b(px|cx|fx|tid)\b", text):
            continue  # a grid coordinate drawn as the operand: another seed

        def f(a, b, tid=0, e=e, w=w):
            names = {"wp": wp, "a_v": a, "b_v": b, "tid": tid, "min": min, "max": max, "abs": abs, "float": float, "int": int,
                     **{p.name: p.value for p in w.args if p.role == "scalar"}}  # a period passed by value
            for line in [line.strip() for line in w.load_lines if " = a[" not in line and " = b[" not in line] + w.lines[1:]:
                local, value = line.strip().split(" = ", 1)
                names[local] = eval(value, names)
            return eval(e.src, names)

        return f, set(re.findall(r"\b[ab]_v\b", text))
    raise AssertionError(f"{kind} never drawn over two loads")


@pytest.mark.parametrize("kind", ["affine map", "midpoint", "weighted average", "linear interpolation",
                                  "squared difference", "sum of squares", "polynomial (Horner form)",
                                  "clamp to a range", "cubic smoothstep"])
def test_each_float_formula_computes_what_its_name_says(kind):
    from synthesis.exprgen import ARITH_FORMULAS

    assert kind in ARITH_FORMULAS
    f, operands = _formula_function(kind, "float32", "arith_formula")
    close = lambda x, y: abs(x - y) < 1e-9  # noqa: E731
    if kind in ("affine map", "polynomial (Horner form)", "clamp to a range", "cubic smoothstep"):
        assert len(operands) == 1
        g = (lambda x: f(x, 0.0)) if operands == {"a_v"} else (lambda x: f(0.0, x))
        if kind == "affine map":
            assert close(g(-1.0) + g(1.5), 2 * g(0.25)) and not close(g(-1.0), g(1.5))
        elif kind == "polynomial (Horner form)":  # degree 2 or 3: the 4th difference vanishes, the 2nd not
            h = [g(-1.0 + 0.5 * k) for k in range(5)]
            assert close(h[0] - 4 * h[1] + 6 * h[2] - 4 * h[3] + h[4], 0.0)
            assert not close(h[0] - 2 * h[1] + h[2], 0.0) or not close(h[2] - 2 * h[3] + h[4], 0.0)
        elif kind == "clamp to a range":
            assert close(g(0.2), 0.2) and 0.25 <= g(100.0) <= 1.5 and g(-100.0) in (0.0, -g(100.0))
        else:
            assert (g(-5.0), g(0.5), g(5.0)) == (0.0, 0.5, 1.0) and g(0.25) < g(0.5) < g(0.75)
        return
    assert operands == {"a_v", "b_v"}
    if kind == "squared difference":
        assert close(f(1.5, -0.25), 1.75 ** 2) and close(f(-0.25, 1.5), 1.75 ** 2)
    elif kind == "sum of squares":
        assert close(f(1.5, -0.25), 1.5 ** 2 + 0.25 ** 2)
    else:  # a convex combination: f(v, v) = v, weights in (0, 1) summing to one
        assert close(f(0.75, 0.75), 0.75)
        assert 0.0 < f(1.0, 0.0) < 1.0 and close(f(1.0, 0.0) + f(0.0, 1.0), 1.0)
        if kind == "midpoint":
            assert close(f(1.0, 0.0), 0.5)


@pytest.mark.parametrize("kind", ["integer midpoint", "non-negative remainder", "round down to a multiple",
                                  "absolute difference", "clamp to a range", "sum of squares", "bit field",
                                  "low bits"])
def test_each_int_formula_computes_what_its_name_says(kind):
    from synthesis.exprgen import INT_FORMULAS

    assert kind in INT_FORMULAS
    f, operands = _formula_function(kind, "int32", "int_formula")
    if kind in ("non-negative remainder", "round down to a multiple", "clamp to a range", "bit field", "low bits"):
        assert len(operands) == 1
        g = (lambda x: f(x, 0)) if operands == {"a_v"} else (lambda x: f(0, x))
        values = [g(x) for x in range(-60, 61)]
        if kind in ("non-negative remainder", "low bits"):  # C's % keeps the dividend's sign; this one never does
            m = max(values) + 1
            assert min(values) == 0 and all((v - x) % m == 0 for v, x in zip(values, range(-60, 61)))
        elif kind == "bit field":  # bits s .. s + width - 1 of the two's-complement value
            assert any(all(v == (x // 2 ** s) % 2 ** width for v, x in zip(values, range(-60, 61)))
                       for s in range(1, 5) for width in range(1, 5))
            assert len(set(values)) > 1
        elif kind == "round down to a multiple":
            m = min(v for v in values if v > 0)
            assert all(v % m == 0 and 0 <= x - v < m for v, x in zip(values, range(-60, 61)))
        else:
            assert g(0) == 0 and g(1000) > 0 and g(-1000) in (0, -g(1000))
        return
    assert operands == {"a_v", "b_v"}
    if kind == "integer midpoint":
        assert f(7, 7) == 7 and f(10, 4) == 7
    elif kind == "absolute difference":
        assert f(3, 10) == f(10, 3) == 7 and f(5, 5) == 0
    else:
        assert f(3, -4) == 25


@pytest.mark.parametrize("kind", ["hypotenuse", "root mean square", "polar angle", "polar to Cartesian",
                                  "exponential decay", "oscillation", "Cauchy loss", "gamma correction",
                                  "fractional part", "soft minimum"])
def test_each_math_formula_computes_what_its_name_says(kind):
    import math

    from synthesis.exprgen import MATH_FORMULAS

    assert kind in MATH_FORMULAS
    f, operands = _formula_function(kind, "float32", "math_formula")
    close = lambda x, y: abs(x - y) < 1e-9  # noqa: E731
    if len(operands) == 1:
        g = (lambda x, tid=0: f(x, 0.0, tid)) if operands == {"a_v"} else (lambda x, tid=0: f(0.0, x, tid))
    if kind == "hypotenuse":
        assert close(f(3.0, 4.0), 5.0) and close(f(4.0, -3.0), 5.0)
    elif kind == "root mean square":
        assert close(f(1.0, -1.0), 1.0) and close(f(3.0, 4.0), math.sqrt(12.5))
    elif kind == "polar angle":
        assert {round(f(1.0, 0.0), 9), round(f(0.0, 1.0), 9)} == {0.0, round(math.pi / 2, 9)}
    elif kind == "polar to Cartesian":  # r * cos(theta) or r * sin(theta), either input the radius
        values = {round(f(2.0, 0.3), 9), round(f(0.3, 2.0), 9)}
        assert values & {round(2.0 * math.cos(0.3), 9), round(2.0 * math.sin(0.3), 9),
                         round(0.3 * math.cos(2.0), 9), round(0.3 * math.sin(2.0), 9)}
        assert close(f(0.0, 0.0), 0.0)
    elif kind == "exponential decay":  # along the grid coordinate: smaller further out, linear in the value
        assert 0.0 < g(1.0, tid=40) < g(1.0, tid=0) <= 1.0 and close(g(-2.0, tid=7), -2.0 * g(1.0, tid=7))
    elif kind == "oscillation":
        samples = [g(1.0, tid=t) for t in range(64)]
        assert max(abs(v) for v in samples) <= 1.0 and max(samples) - min(samples) > 0.5
        assert close(g(-2.0, tid=5), -2.0 * g(1.0, tid=5))
    elif kind == "Cauchy loss":
        assert close(g(0.0), 0.0) and close(g(-1.5), math.log(1.0 + 2.25))
    elif kind == "gamma correction":
        assert (g(-3.0), g(0.0), g(1.0), g(3.0)) == (0.0, 0.0, 1.0, 1.0)
        assert round(g(0.5), 9) in (round(0.5 ** 2.2, 9), round(0.5 ** 0.4545, 9))
    elif kind == "fractional part":
        assert close(g(2.25), 0.25) and close(g(-0.25), 0.75)
    else:  # soft minimum: below the minimum by at most log 2, symmetric
        assert close(f(1.0, 1.0), 1.0 - math.log(2.0)) and close(f(0.5, 2.0), f(2.0, 0.5))
        assert 0.5 - math.log(2.0) <= f(0.5, 2.0) <= 0.5


@pytest.mark.parametrize("kind", ["Welsch loss", "Geman-McClure loss", "wrap to a period", "amplitude from decibels",
                                  "smooth absolute value", "soft maximum", "Reinhard tone map", "damped oscillation",
                                  "circle area", "GELU activation", "angle in degrees", "distance to the nearest integer",
                                  "ellipse area", "cell index", "sphere surface area", "sphere volume",
                                  "circumference", "cylinder volume"])
def test_each_themed_math_formula_computes_what_its_name_says(kind):
    """The formulas the math themes added (session 53), each by the relation that defines it."""
    import math

    from synthesis.exprgen import MATH_FORMULAS, ROUNDING_STEPS, WRAP_PERIODS

    assert kind in MATH_FORMULAS
    f, operands = _formula_function(kind, "float32", "math_formula")
    close = lambda x, y: abs(x - y) < 1e-9  # noqa: E731
    if len(operands) == 1:
        g = (lambda x, tid=0: f(x, 0.0, tid)) if operands == {"a_v"} else (lambda x, tid=0: f(0.0, x, tid))
    grid = [k / 64 for k in range(-128, 129)]
    if kind == "Welsch loss":  # 0 at 0, even, rising, below 1 however large the residual
        assert g(0.0) == 0.0 and close(g(1.5), g(-1.5)) and close(g(1.0), 1.0 - math.exp(-0.5))
        assert all(g(x) < g(x + 0.5) < 1.0 for x in (0.0, 1.0, 3.0))
    elif kind == "Geman-McClure loss":
        assert g(0.0) == 0.0 and close(g(1.0), 0.5) and close(g(-3.0), 0.9)
    elif kind == "wrap to a period":  # into [0, L), the same point of the box
        values = [g(x) for x in grid]
        period = max(values) + 1 / 64
        assert period in WRAP_PERIODS and all(0.0 <= v < period and close((x - v) / period, round((x - v) / period))
                                              for v, x in zip(values, grid))
    elif kind == "amplitude from decibels":
        assert close(g(0.0), 1.0) and close(g(20.0), 10.0) and close(g(-40.0), 0.01)
    elif kind == "smooth absolute value":  # |x| away from 0, even; positive at 0, or 0 there when shifted
        assert close(g(1.5), g(-1.5)) and abs(g(2.0) - 2.0) < 0.11 and 0.0 <= g(0.0) <= 0.1
        assert all(g(x) <= g(x + 1 / 64) for x in grid if x >= 0.0)
    elif kind == "soft maximum":  # above the maximum by at most log 2, symmetric
        assert close(f(1.0, 1.0), 1.0 + math.log(2.0)) and close(f(0.5, 2.0), f(2.0, 0.5))
        assert 2.0 <= f(0.5, 2.0) <= 2.0 + math.log(2.0)
    elif kind == "Reinhard tone map":  # L / (1 + L) of the radiance, dark below 0
        assert g(-1.0) == 0.0 and close(g(1.0), 0.5) and close(g(3.0), 0.75)
    elif kind == "damped oscillation":  # smaller envelope further out, linear in the value
        assert abs(g(1.0, tid=60)) <= math.exp(-0.25 * 60 / 128) + 1.0 and close(g(-2.0, tid=9), -2.0 * g(1.0, tid=9))
        assert max(abs(g(1.0, tid=t)) for t in range(64)) <= 1.0
    elif kind == "circle area":
        assert close(g(2.0), 4.0 * math.pi) and close(g(-1.0), math.pi)
    elif kind == "GELU activation":  # x * Phi(x): 0 at 0, near x far right, near 0 far left
        assert g(0.0) == 0.0 and abs(g(4.0) - 4.0) < 1e-3 and abs(g(-4.0)) < 1e-3
        # 1/sqrt(2) written to 8 digits: within 1e-8 of the exact curve
        assert abs(g(1.0) - 0.5 * (1.0 + math.erf(1.0 / math.sqrt(2.0)))) < 1e-8
    elif kind == "angle in degrees":
        assert close(g(math.pi), 180.0) and close(g(-0.5 * math.pi), -90.0)
    elif kind == "distance to the nearest integer":  # 0 on the integers, 0.5 halfway
        assert g(2.0) == 0.0 and close(g(1.25), 0.25) and close(g(-0.75), 0.25) and close(g(0.5), 0.5)
    elif kind == "ellipse area":
        assert close(f(2.0, 3.0), 6.0 * math.pi) and close(f(3.0, 2.0), 6.0 * math.pi)
    elif kind == "sphere surface area":
        assert close(g(0.5), math.pi) and close(g(-2.0), 16.0 * math.pi)
    elif kind == "sphere volume":  # of the radius's size: a sphere of radius -1 is the unit sphere
        assert close(g(1.0), 4.0 * math.pi / 3.0) and close(g(-1.5), 4.5 * math.pi)
    elif kind == "circumference":
        assert close(g(0.5), math.pi) and close(g(2.0), 4.0 * math.pi)
    elif kind == "cylinder volume":  # pi r^2 h, either value the radius
        assert close(f(2.0, 3.0), 12.0 * math.pi) or close(f(2.0, 3.0), 18.0 * math.pi)
        assert close(f(1.0, 1.0), math.pi) and not close(f(2.0, 3.0), f(3.0, 2.0))
    else:  # cell index: the cell of a grid of step h the value lies in, an int
        values = [g(x) for x in grid]
        steps = [h for h in ROUNDING_STEPS + (1.0, 2.0) if all(v == math.floor(x / h) for v, x in zip(values, grid))]
        assert steps and all(isinstance(v, int) for v in values)


@pytest.mark.parametrize("kind", ["angle from a cosine", "angle from a sine", "arctangent soft limit", "frustum height",
                                  "round up to a multiple", "snap to a grid", "fractional part toward zero",
                                  "log2 compression", "decibels", "sphere radius from a volume"])
def test_each_special_math_formula_computes_what_its_name_says(kind):
    """Each formula is checked by the relation that defines it (the cosine of the angle is the
    value), not by the expression the generator writes."""
    import math

    from synthesis.exprgen import ROUNDING_STEPS, SPECIAL_MATH_FORMULAS

    assert kind in SPECIAL_MATH_FORMULAS
    f, operands = _formula_function(kind, "float32", "math_formula")
    assert len(operands) == 1
    g = (lambda x: f(x, 0.0)) if operands == {"a_v"} else (lambda x: f(0.0, x))
    close = lambda x, y: abs(x - y) < 1e-9  # noqa: E731
    grid = [k / 64 for k in range(-128, 129)]  # [-2, 2] on a finer grid than any rounding step
    if kind == "angle from a cosine":
        assert all(0.0 <= g(x) <= math.pi and close(math.cos(g(x)), min(max(x, -1.0), 1.0)) for x in grid)
    elif kind == "angle from a sine":
        assert all(abs(g(x)) <= math.pi / 2 and close(math.sin(g(x)), min(max(x, -1.0), 1.0)) for x in grid)
    elif kind == "arctangent soft limit":  # the identity's slope at 0, odd, increasing, bounded by L * pi / 2
        limit = round(2 * g(1e12) / math.pi, 6)
        assert limit in (1.0, 2.0, 4.0) and abs((g(1e-4) - g(-1e-4)) / 2e-4 - 1.0) < 1e-6
        assert all(close(g(-x), -g(x)) and g(x) < g(x + 1 / 64) < limit * math.pi / 2 for x in grid)
    elif kind == "frustum height":  # the view's height at depth d: 2 |d| tan(fov / 2), the angle an argument
        ratio = g(1.0) / 2.0  # (a depth is a distance: a signed operand is taken by its magnitude)
        assert any(close(ratio, math.tan(v / 2)) for v in (0.75, 1.0, 1.25)) and close(g(-0.5), 0.5 * 2 * ratio)
    elif kind in ("round up to a multiple", "snap to a grid"):
        values = [g(x) for x in grid]
        step = min(abs(v - u) for u, v in zip(values, values[1:]) if v != u)
        assert step in ROUNDING_STEPS and all(close(v / step, round(v / step)) for v in values)
        if kind == "round up to a multiple":
            assert all(0.0 <= v - x < step for v, x in zip(values, grid))
        else:  # the nearest multiple; a half step goes away from zero
            assert all(abs(v - x) <= step / 2 for v, x in zip(values, grid))
            assert (g(step / 2), g(-step / 2)) == (step, -step)
    elif kind == "fractional part toward zero":  # C's fmodf(x, 1.0): the sign of x kept
        assert close(g(2.25), 0.25) and close(g(-2.25), -0.25) and close(g(-0.25), -0.25) and g(3.0) == 0.0
    elif kind == "log2 compression":
        assert all(close(2.0 ** g(x), 1.0 + abs(x)) for x in grid)
    elif kind == "decibels":  # 20 log10 of the amplitude; silence at the floor, -100 dB
        assert close(g(0.1), -20.0) and close(g(-10.0), 20.0) and close(g(0.0), -100.0)
    else:  # the radius of the sphere that holds the volume
        assert all(close(4.0 / 3.0 * math.pi * g(x) ** 3, abs(x)) for x in grid)


def test_a_relative_difference_is_the_difference_over_the_references_size():
    f, operands = _formula_function("relative difference", "float32", "arith_formula")
    assert operands == {"a_v", "b_v"}
    forward, backward = f(1.5, -0.5), f(-0.5, 1.5)
    # (x - y) / (|y| + eps) for the drawn order: one of the two readings, with one eps in {0.125, 0.25, 0.5}
    assert any(abs(forward - (x - y) / (abs(y) + eps)) < 1e-9 and abs(backward - (y - x) / (abs(x) + eps)) < 1e-9
               for x, y in ((1.5, -0.5), (-0.5, 1.5)) for eps in (0.125, 0.25, 0.5))
    assert abs(f(0.75, 0.75)) < 1e-12


def test_a_signed_square_keeps_the_sign():
    f, operands = _formula_function("signed square", "float32", "arith_formula")
    g = (lambda x: f(x, 0.0)) if operands == {"a_v"} else (lambda x: f(0.0, x))
    assert g(1.5) == 2.25 and g(-1.5) == -2.25 and g(0.0) == 0.0


def test_blocks_to_cover_is_the_ceiling_of_the_size_over_the_block():
    f, operands = _formula_function("blocks to cover", "int32", "int_formula")
    g = (lambda x: f(x, 0)) if operands == {"a_v"} else (lambda x: f(0, x))
    assert any(all(g(x) == -(-abs(x) // m) for x in range(-60, 61)) for m in (4, 8, 16, 32))


def _one_operand(kind: str):
    f, operands = _formula_function(kind, "int32", "int_formula")
    assert len(operands) == 1
    return (lambda x: f(x, 0)) if operands == {"a_v"} else (lambda x: f(0, x))


def test_a_round_up_to_a_multiple_is_the_least_multiple_at_or_above_the_size():
    g = _one_operand("round up to a multiple")
    assert any(all(g(x) % m == 0 and 0 <= g(x) - abs(x) < m for x in range(-60, 61)) for m in (4, 8, 16, 32))


def test_a_rounded_division_is_the_nearest_quotient_with_halves_up():
    g = _one_operand("rounded division")
    # Warp's // of ints floors, as Python's: (x + m // 2) // m is x / m rounded, a half up, negatives too
    assert any(all(g(x) == math.floor(x / m + 0.5) for x in range(-60, 61)) for m in (4, 8, 10, 16))


def test_a_fixed_point_blend_weights_two_values_by_eighths_of_256():
    f, operands = _formula_function("fixed-point blend", "int32", "int_formula")
    assert operands == {"a_v", "b_v"}
    assert all(f(v, v) == v for v in (-100, -7, 0, 5, 100))  # weights summing to 256: a value blended with itself
    share = f(256, 0) / 256  # the first operand's weight, neither 0 nor 1 nor a half
    assert share in (0.25, 0.375, 0.625, 0.75) and f(0, 256) == 256 - f(256, 0)


def test_an_integer_percentage_scales_then_floors():
    g = _one_operand("integer percentage")
    p = g(100)
    assert p in (25, 50, 75, 90, 110, 125, 150) and p != 100
    assert all(g(x) == (x * p) // 100 for x in range(-60, 61))


def test_a_midpoint_without_overflow_is_the_floored_midpoint():
    f, operands = _formula_function("midpoint without overflow", "int32", "int_formula")
    assert operands == {"a_v", "b_v"}
    # lo + (hi - lo) // 2: the midpoint rounded toward lo, without forming lo + hi
    assert all(f(lo, hi) == lo + (hi - lo) // 2 and lo <= f(lo, hi) <= hi for lo in range(-9, 9) for hi in range(lo, 12))


def test_a_distance_on_a_ring_is_the_shorter_way_round():
    f, operands = _formula_function("distance on a ring", "int32", "int_formula")
    assert operands == {"a_v", "b_v"}
    for n in (12, 16, 24, 64):
        if all(f(x, y) == min((x - y) % n, (y - x) % n) for x in range(-30, 30, 7) for y in range(-20, 40, 3)):
            return
    raise AssertionError("no ring size gives the shorter distance")


def test_a_mirrored_index_reflects_at_both_ends():
    """Reflect padding: 0, 1, ..., n - 1, n - 1, ..., 0, 0, 1, ... (period 2n), for negative indices too."""
    g = _one_operand("mirrored index")
    for n in (8, 12, 16, 32):
        want = lambda x: min(x % (2 * n), 2 * n - 1 - x % (2 * n))
        if all(g(x) == want(x) for x in range(-70, 70)):
            assert g(n - 1) == g(n) == n - 1 and g(-1) == 0
            return
    raise AssertionError("no period reflects every index")


def test_a_signed_low_field_is_the_low_bits_read_in_twos_complement():
    g = _one_operand("signed low field")
    for bits in (4, 8):
        want = lambda x: (x & (2**bits - 1)) - (2**bits if x & 2 ** (bits - 1) else 0)
        if all(g(x) == want(x) for x in range(-300, 300, 7)):
            return
    raise AssertionError("neither an int4 nor an int8 field")


def test_a_fixed_point_product_is_the_q8_product():
    f, operands = _formula_function("fixed-point product", "int32", "int_formula")
    assert operands == {"a_v", "b_v"}
    assert all(f(a, b) == (a * b) >> 8 for a in range(-600, 600, 37) for b in range(-300, 300, 29))
    assert f(256, 384) == 384 and f(-512, 128) == -256  # 1.0 * 1.5 and -2.0 * 0.5 in Q8


def test_a_saturating_add_holds_the_sum_at_its_cap():
    f, operands = _formula_function("saturating add", "int32", "int_formula")
    assert operands == {"a_v", "b_v"}
    cap = f(5000, 5000)
    assert cap in (100, 127, 255, 1000) and all(f(x, y) == min(x + y, cap) for x in (-50, 0, 60) for y in (-5, 99, 700))


def test_a_shift_division_floors_like_a_power_of_two_divide():
    g = _one_operand("shift division")
    assert any(all(g(x) == math.floor(x / 2 ** k) for x in range(-60, 61)) for k in (1, 2, 3, 4))


def test_the_more_int_formulas_come_from_a_stream_of_their_own(monkeypatch):
    """A kernel that draws none of INT_FORMULAS_MORE keeps every draw it made before they existed."""
    import random

    import synthesis.exprgen as exprgen

    def draw(seed: int):
        w = exprgen.KernelWriter(random.Random(seed), "k", "test", seed, (64,))
        w.add_array("a", "int32", "input", low=-100, high=100)
        drawn = exprgen.ExprGen(w, ("add", "mul"), loads=["a"]).int_formula()
        return drawn and (drawn[0].src, drawn[1])

    now = {seed: draw(seed) for seed in range(60)}
    monkeypatch.setattr(exprgen, "INT_FORMULAS_MORE_SHARE", 0.0)
    before = {seed: draw(seed) for seed in range(60)}
    kinds = {d[1] for d in now.values() if d}
    assert kinds & set(exprgen.INT_FORMULAS_MORE) and kinds & set(exprgen.INT_FORMULAS)
    assert all(now[s] == before[s] for s in now if now[s] and now[s][1] in exprgen.INT_FORMULAS)


def test_packed_fields_hold_both_values_low_bits():
    f, operands = _formula_function("pack two fields", "int32", "int_formula")
    assert operands == {"a_v", "b_v"}
    for bits in (3, 4, 5):
        m = (1 << bits) - 1
        if all(f(x, y) in ((x & m) << bits | (y & m), (y & m) << bits | (x & m)) for x, y in ((5, 9), (-3, 7), (60, -1))):
            return
    raise AssertionError("no field width reads the packed value")


# ---- single-use loads indexed in place (KernelWriter.inline_single_loads) ----------------------
def _writer_with_loads():
    import random

    from synthesis.exprgen import Expr, KernelWriter

    w = KernelWriter(random.Random(0), "k_0123456789", "arithmetic", 0, (64,))
    a = w.add_array("a", "float32", "input")
    b = w.add_array("b", "float32", "input")
    c = w.add_array("c", "float32", "inout")
    out = w.add_array("out", "float32", "output")
    la, lb, lc = w.load(a), w.load(b), w.load(c)
    with w.block(f"if {lb.src} > 0.0:"):
        w.store(out, Expr(f"{lb.src} * 2.0", "float32", 4.0, None))
    w.store(out, Expr(f"wp.abs({la.src}) + {lc.src}", "float32", 4.0, None))
    w.store(c, Expr("1.0", "float32", 1.0, None))
    w.lines[w.head:w.head] = w.load_lines
    w.load_lines = []
    return w


def test_a_read_only_load_used_once_at_the_top_level_is_indexed_in_place():
    w = _writer_with_loads()
    w.inline_single_loads()
    body = "\n".join(w.lines)
    assert "out[tid] = wp.abs(a[tid]) + c_v" in body and "a_v = a[tid]" not in body


def test_a_load_used_in_a_branch_or_of_an_array_written_stays_a_local():
    w = _writer_with_loads()
    w.inline_single_loads()
    body = "\n".join(w.lines)
    assert "b_v = b[tid]" in body and "if b_v > 0.0:" in body  # a global read inside a branch is a Warp hazard
    assert "c_v = c[tid]" in body  # c is written after the read: its element must be read first


# ---- a load under a second name (KernelWriter.merge_load_aliases) -----------------------------------
def _writer_with_aliases():
    import random

    from synthesis.exprgen import Expr, KernelWriter

    w = KernelWriter(random.Random(0), "k_0123456789", "control_flow", 0, (64,))
    a = w.add_array("a", "float32", "input", shape=(64,))
    b = w.add_array("b", "float32", "input", shape=(64,))
    out = w.add_array("out", "float32", "output")
    la, lb = w.load(a), w.load(b)
    w.emit(f"best = {la.src}")  # read nowhere else: one local
    w.emit(f"other = {lb.src}")
    with w.block("for k in range(64):"):
        w.emit("best = wp.max(best, a[k])")
    w.store(out, Expr(f"best + other * {lb.src}", "float32", 4.0, None))  # b's local read twice: kept
    w.lines[w.head:w.head] = w.load_lines
    w.load_lines = []
    return w


def test_a_load_copied_to_a_second_name_and_read_nowhere_else_is_loaded_under_that_name():
    w = _writer_with_aliases()
    w.merge_load_aliases()
    body = "\n".join(w.lines)
    assert "    best = a[tid]" in body and "a_v" not in body
    assert "b_v = b[tid]" in body and "    other = b_v" in body


# ---- outputs updated in place (KernelWriter.update_outputs) ---------------------------------------
def _writer_with_stores(dtype: str = "float32", name: str = "loss"):
    """A kernel writing `name` (its own element, in a loop over its columns), `shared` (one element
    every thread writes), `cnt` (int) and `grid` (an element whose index misses the loop variable)."""
    import random

    from synthesis.exprgen import Expr, KernelWriter

    w = KernelWriter(random.Random(0), "k_0123456789", "arithmetic", 0, (16,))
    a = w.add_array("a", "float32", "input", shape=(16, 4))
    out = w.add_array(name, dtype, "output", shape=(16, 4))
    shared = w.add_array("shared", "float32", "output", shape=(1,))
    grid = w.add_array("grid", "float32", "output")
    with w.block("for j in range(4):"):
        value = "int(a[tid, j] * 2.0)" if dtype == "int32" else "a[tid, j] * 2.0"
        w.store(out, Expr(value, dtype, 2.0, None), index="tid, j")
        w.store(grid, Expr("a[tid, j]", "float32", 1.0, None))
    w.store(shared, Expr("a[tid, 0]", "float32", 1.0, None), index="0")
    return w


def _updated(dtype: str, seed: int, name: str = "loss"):
    import random

    w = _writer_with_stores(dtype, name)
    w.rng = random.Random(seed)
    w.update_outputs()
    return w


def _inout(w) -> str:
    """The name of the one array the kernel updates in place."""
    (name,) = [a.name for a in w.args if a.role == "inout"]
    return name


def test_only_an_output_each_thread_writes_once_per_element_is_updated_in_place():
    for seed in range(20):
        w = _updated("float32", seed)
        body = "\n".join(w.lines)
        # `shared[0]` is every thread's, `grid[tid]` is written on every trip of the loop over j
        assert "shared[0] = a[tid, 0]" in body and "grid[tid] = a[tid, j]" in body, body
        assert "loss[tid, j] = a[tid, j] * 2.0" not in body, body
        assert w.arg("grid").role == "output" and w.arg("shared").role == "output"
        assert "loss" in _inout(w)


def test_an_updated_output_accumulates_or_relaxes_toward_the_new_value():
    import numpy as np

    from tests.synthesis.python_run import draw_inputs, run

    kinds = set()
    for seed in range(12):
        w = _updated("float32", seed)
        updated = _inout(w)
        spec = w.finish("test")
        inputs = draw_inputs(spec, seed)
        got = run(spec, inputs)[updated]
        new = 2.0 * inputs["a"]
        rate = next((a.value for a in spec.args if a.role == "scalar"), None)
        want = inputs[updated] + new if rate is None else (1.0 - rate) * inputs[updated] + rate * new
        np.testing.assert_allclose(got, want, atol=1e-12)
        kinds.add(rate is None)
    assert kinds == {True, False}  # both ways are drawn


def test_a_smoothed_output_is_renamed_as_the_running_average_it_becomes():
    """`loss` blended over launches holds a running average of the loss: `running_loss`, `loss_ema`..."""
    from synthesis.naming import running_names

    renamed = set()
    for seed in range(40):
        w = _updated("float32", seed)
        if any(a.role == "scalar" for a in w.args):  # blended
            assert _inout(w) in running_names("loss"), w.lines
            renamed.add(_inout(w))
            assert f"{_inout(w)}: wp.array2d(dtype=" in " ".join(w.annotations), w.annotations
        else:
            assert _inout(w) == "loss"
    assert len(renamed) >= 2


def test_an_output_is_smoothed_only_where_its_name_holds_a_statistic_or_a_signal():
    """A force buffer is added to, never smoothed; a clipped value, a slope or a generic `out` is
    written as computed (smoothed over launches, it is a running estimate of nothing)."""
    for seed in range(20):
        w = _updated("float32", seed, "force")
        assert any(line.strip() == "force[tid, j] += a[tid, j] * 2.0" for line in w.lines), w.lines
        for name in ("clipped", "slope", "out", "v_out"):
            w = _updated("float32", seed, name)
            assert f"{name}[tid, j] = a[tid, j] * 2.0" in "\n".join(w.lines) and w.arg(name).role == "output"


def test_an_integer_output_is_accumulated_never_blended():
    for seed in range(20):
        body = "\n".join(_updated("int32", seed, "count").lines)
        assert "count[tid, j] += " in body and "wp.lerp" not in body, body


def test_an_output_read_elsewhere_is_left_as_written():
    from synthesis.exprgen import Expr

    w = _writer_with_stores()
    w.store(w.add_array("copy", "float32", "output"), Expr("loss[tid, 0]", "float32", 2.0, None))
    w.update_outputs()
    assert "loss[tid, j] = a[tid, j] * 2.0" in "\n".join(w.lines) and w.arg("loss").role == "output"


def test_an_intermediate_value_kept_on_the_way_is_never_updated_in_place():
    # `avg_out[tid] = avg`: a value kept for a later look; accumulating it over launches means nothing
    from synthesis.exprgen import Expr

    for seed in range(20):
        w = _writer_with_stores()
        w.store(w.add_array("avg_out", "float32", "output"), Expr("a[tid, 0]", "float32", 1.0, None))
        w.intermediate_outputs.add("avg_out")
        w.rng.seed(seed)
        w.update_outputs()
        assert "avg_out[tid] = a[tid, 0]" in "\n".join(w.lines) and w.arg("avg_out").role == "output"


def _writer_storing(value: str, dtype: str = "float32", *assignments: str):
    """A kernel that assigns `assignments` (`name = value` lines) and stores `value` into `signal[tid]`
    (a name that holds both a sum and a running average: how it is updated depends on the value)."""
    import random

    from synthesis.exprgen import Expr, KernelWriter

    w = KernelWriter(random.Random(0), "k_0123456789", "arithmetic", 0, (16,))
    w.add_array("a", "float32", "input")
    w.add_array("b", "float32", "input")
    out = w.add_array("signal", dtype, "output")
    for line in assignments:
        w.emit(line)
    w.store(out, Expr(value, dtype, 2.0, None))
    return w


def test_a_value_that_wraps_around_is_never_summed_or_blended_over_steps():
    # an angle, a fractional part, a sign: 350 and 10 degrees blend to 180; `theta += atan2` counts turns
    for value, assignments in [("wp.atan2(a[tid], b[tid])", ()), ("a[tid] - wp.floor(a[tid])", ()),
                               ("slope", ("slope = float(0.0)", "slope = wp.sign(a[tid]) * b[tid]"))]:
        for seed in range(12):
            w = _writer_storing(value, "float32", *assignments)
            assert w.stored_value_kind(value) == "wraps"
            w.rng.seed(seed)
            w.update_outputs()
            assert f"signal[tid] = {value}" in "\n".join(w.lines) and w.arg("signal").role == "output"


def test_a_unit_or_clamped_value_is_smoothed_toward_never_summed():
    # a sum of unit normals or of clamped values leaves their range; smoothing toward them stays near it
    cases = [("wp.normalize(n)", "vec3", ("n = wp.vec3(a[tid], b[tid], 1.0)",)),
             ("t * t * (3.0 - 2.0 * t)", "float32", ("t = wp.clamp(a[tid], 0.0, 1.0)",)),
             ("tangent", "vec3", ("n = wp.normalize(wp.vec3(a[tid], 1.0, 0.0))", "m = wp.normalize(wp.vec3(b[tid], 0.0, 1.0))",
                                  "tangent = wp.cross(n, m)"))]
    for value, dtype, assignments in cases:
        for seed in range(12):
            w = _writer_storing(value, dtype, *assignments)
            assert w.stored_value_kind(value) == "bounded"
            w.rng.seed(seed)
            w.update_outputs()
            body = "\n".join(w.lines)
            ema = _inout(w)
            assert "+=" not in body and (f"wp.lerp({ema}[tid]" in body or f"* {ema}[tid] +" in body), body


def test_a_unit_vector_a_helper_returns_in_a_tuple_is_smoothed_toward_never_summed():
    """`t, b = tangent_frame(n, g)`: the helper's return is read in the helper (its normalized t, the
    cross of unit vectors times a handedness sign), so neither is summed into an output."""
    helper = ("@wp.func\ndef tangent_frame(normal: wp.vec3, tangent: wp.vec4) -> tuple[wp.vec3, wp.vec3]:\n"
              "    n = wp.normalize(normal)\n"
              "    sign = wp.where(tangent[3] < 0.0, -1.0, 1.0)\n"
              "    g = wp.vec3(tangent[0], tangent[1], tangent[2])\n"
              "    t = wp.normalize(g - wp.dot(g, n) * n)\n"
              "    b = wp.cross(n, t) * sign\n"
              "    return t, b")
    for value in ("t", "b"):
        for seed in range(12):
            w = _writer_storing(value, "vec3", "t, b = tangent_frame(wp.vec3(a[tid], 1.0, 0.0), wp.vec4(b[tid], 0.0, 1.0, 1.0))")
            w.helpers.append(helper)
            assert w.stored_value_kind(value) == "bounded"
            w.rng.seed(seed)
            w.update_outputs()
            assert "+=" not in "\n".join(w.lines)
    w = _writer_storing("s", "float32", "t, s = frame_and_scale(a[tid])")  # a helper the kernel does not have
    assert w.stored_value_kind("s") is None


def test_a_clamped_integer_is_left_as_written():
    # an integer output cannot be smoothed, and a sum of clamped values leaves the clamp's range
    for seed in range(12):
        w = _writer_storing("wp.clamp(int(a[tid]), 0, 8)", "int32")
        w.rng.seed(seed)
        w.update_outputs()
        assert "signal[tid] = wp.clamp(int(a[tid]), 0, 8)" in "\n".join(w.lines) and w.arg("signal").role == "output"


def test_an_ordinary_value_is_still_summed_or_blended():
    assert _writer_storing("a[tid] * b[tid] + 1.0").stored_value_kind("a[tid] * b[tid] + 1.0") is None
    # a clamped factor inside a product leaves the product unbounded: a force scaled by a gain
    w = _writer_storing("a[tid] * g", "float32", "g = wp.clamp(b[tid], 0.0, 1.0)")
    assert w.stored_value_kind("a[tid] * g") is None


# ---- a value computed again reads its local (KernelWriter.reuse_locals) -------------------------
def _reused(*lines: str) -> list[str]:
    import random

    from synthesis.exprgen import KernelWriter

    w = KernelWriter(random.Random(0), "k_0123456789", "arithmetic", 0, (16,))
    w.lines = ["    tid = wp.tid()", *(f"    {line}" for line in lines)]
    w.reuse_locals()
    return [line.strip() for line in w.lines[1:]]


def test_a_repeat_of_a_locals_value_reads_the_local():
    got = _reused("u_v = u[tid]", "v = w[tid]", "dl = u_v - v", "mag = wp.abs(u_v)",
                  "out[tid] = 0.5 * (u_v - v) + wp.abs(u_v - v)", "d2[tid] = wp.abs(u_v) * 2.0")
    # its own parentheses go, a call's stay
    assert got[-2:] == ["out[tid] = 0.5 * dl + wp.abs(dl)", "d2[tid] = mag * 2.0"]


def test_a_second_local_of_the_same_value_goes_and_its_reads_read_the_first():
    got = _reused("u_v = u[tid]", "mag = wp.abs(u_v)", "a[tid] = mag", "dist = wp.abs(u_v)",
                  "b[tid] = dist * dist + p.dist")
    assert got == ["u_v = u[tid]", "mag = wp.abs(u_v)", "a[tid] = mag", "b[tid] = mag * mag + p.dist"]


def test_a_value_whose_inputs_change_or_that_reads_an_array_or_draws_a_random_number_is_computed_again():
    reassigned = ["x = u[tid]", "y = x * 2.0", "x = x + 1.0", "out[tid] = x * 2.0"]
    assert _reused(*reassigned) == reassigned
    array = ["y = u[tid] * 2.0", "u[tid] = 0.0", "out[tid] = u[tid] * 2.0"]
    assert _reused(*array) == array
    random_draws = ["s = wp.rand_init(seed, tid)", "a = wp.randf(s) - 0.5", "b = wp.randf(s) - 0.5", "out[tid] = a + b"]
    assert _reused(*random_draws) == random_draws
    in_branch = ["x = u[tid]", "if x > 0.0:", "    y = x * 2.0", "out[tid] = x * 2.0"]  # not assigned at the top
    assert _reused(*in_branch) == [line.strip() for line in in_branch]


def test_reusing_locals_leaves_every_output_as_warp_computes_it(monkeypatch):
    """Generated kernels the pass changed, and the same draws without it, run by Warp on the CPU on the
    same inputs: equal, element for element."""
    from cuda_production.reference import warp_reference
    from synthesis.categories import generate
    from synthesis.exprgen import KernelWriter

    pairs = []
    # the categories whose kernels the pass changes (session 55: multi_conditional's chained forms no longer
    # compute a value twice)
    for category in ("arithmetic", "atomic", "math"):
        for seed in range(800):
            with monkeypatch.context() as m:
                m.setattr(KernelWriter, "reuse_locals", lambda self: None)
                plain = generate(category, seed)
            reused = generate(category, seed)
            if reused.source != plain.source:
                pairs.append((plain, reused))
            if len([p for p in pairs if p[0].category == category]) >= 4:
                break
    assert len(pairs) >= 8
    before = warp_reference([p for p, _ in pairs], "t_reuse_before")
    after = warp_reference([r for _, r in pairs], "t_reuse_after")
    assert before == after and len(after) == len(pairs)


# ---- results written into their store (KernelWriter.inline_results) -------------------------------
def _writer_with_named_results():
    """`soft` (read once, by the store on the next line) and `shared` (read by two stores)."""
    import random

    from synthesis.exprgen import Expr, KernelWriter

    w = KernelWriter(random.Random(0), "k_0123456789", "arithmetic", 0, (16,))
    a = w.load(w.add_array("a", "float32", "input"))
    soft = w.assign(Expr(f"{a.src} / wp.sqrt({a.src} * {a.src} + 0.25)", "float32", 2.0, None, atom=False), "soft")
    w.store(w.add_array("soft_out", "float32", "output"), soft)
    shared = w.assign(Expr(f"wp.abs({a.src}) * 2.0", "float32", 4.0, None, atom=False), "shared")
    w.store(w.add_array("twice", "float32", "output"), shared)
    w.store(w.add_array("plus", "float32", "output"), Expr(f"{shared.src} + 1.0", "float32", 5.0, None, atom=False))
    return w


def test_a_result_read_only_by_the_next_store_is_written_into_it():
    import numpy as np

    from tests.synthesis.python_run import draw_inputs, run

    w = _writer_with_named_results()
    w.inline_results()
    w.output_update_share = w.intermediate_output_share = w.result_inline_share = 0.0
    spec = w.finish("test")
    body = [line.strip() for line in spec.source.splitlines()]
    assert "soft_out[tid] = a_v / wp.sqrt(a_v * a_v + 0.25)" in body and not any(l.startswith("soft") and " = " in l and "[" not in l.split(" = ")[0] for l in body), spec.source
    inputs = draw_inputs(spec, 0)
    a = inputs["a"]
    np.testing.assert_allclose(run(spec, inputs)["soft_out"], a / np.sqrt(a * a + 0.25), atol=1e-12)


def test_a_result_read_twice_keeps_its_name():
    w = _writer_with_named_results()
    w.inline_results()
    text = "\n".join(w.lines)
    shared = next(line.split(" = ")[0].strip() for line in w.lines if line.strip().startswith("shared"))
    assert f"twice[tid] = {shared}" in text and f"plus[tid] = {shared} + 1.0" in text, text


# ---- intermediate values stored (KernelWriter.store_intermediate) ---------------------------------
def _writer_with_locals():
    """`dist` (computed from the thread's element, read later), `unread` (computed, never read again)
    and `scale2` (from a parameter alone: the same in every thread)."""
    import random

    from synthesis.exprgen import Expr, KernelWriter

    w = KernelWriter(random.Random(0), "k_0123456789", "arithmetic", 0, (16,))
    a = w.load(w.add_array("a", "float32", "input"))
    g = w.add_scalar("gain", "float32", 0.5)
    dist = w.assign(Expr(f"wp.abs({a.src}) * 2.0", "float32", 2.0, None, atom=False), "dist")
    scale = w.assign(Expr(f"{g.src} * 4.0", "float32", 2.0, None, atom=False), "scale")
    w.assign(Expr(f"{a.src} * 3.0", "float32", 3.0, None, atom=False), "unread")
    w.store(w.add_array("out", "float32", "output"), Expr(f"{dist.src} * {scale.src} + 1.0", "float32", 5.0, None))
    return w


def test_a_computed_local_read_later_is_stored_where_it_is_computed():
    import numpy as np

    from tests.synthesis.python_run import draw_inputs, run

    w = _writer_with_locals()
    w.store_intermediate()
    w.output_update_share = w.intermediate_output_share = 0.0
    spec = w.finish("test")
    lines = spec.source.splitlines()
    at = next(k for k, line in enumerate(lines) if line.strip().startswith("dist"))
    local = lines[at].split(" = ")[0].strip()  # `dist__1` until the module's names are made plain
    assert lines[at + 1].strip() == f"dist_out[tid] = {local}", spec.source
    inputs = draw_inputs(spec, 0)
    np.testing.assert_allclose(run(spec, inputs)["dist_out"], 2.0 * np.abs(inputs["a"]), atol=1e-12)


def test_a_load_an_unread_local_or_one_every_thread_shares_is_not_stored():
    for seed in range(10):
        import random

        w = _writer_with_locals()
        w.rng = random.Random(seed)
        w.store_intermediate()
        assert [a.name for a in w.args if a.role == "output"] == ["out", "dist_out"], w.lines


def test_a_local_already_stored_as_it_is_is_not_stored_again():
    """`wave = ...; wave_out[tid] = wave`: a second output of `wave` would copy the first (session 48
    found it in a committed sample); `dist`, read into another output's formula, is still stored."""
    import random

    from synthesis.exprgen import Expr, KernelWriter

    for seed in range(10):
        w = KernelWriter(random.Random(seed), "k_0123456789", "arithmetic", 0, (16,))
        a = w.load(w.add_array("a", "float32", "input"))
        wave = w.assign(Expr(f"wp.sin({a.src} * 2.0)", "float32", 1.0, None, atom=False), "wave")
        w.store(w.add_array("wave_out", "float32", "output"), wave)
        w.store_intermediate()
        assert [x.name for x in w.args if x.role == "output"] == ["wave_out"], w.lines
        dist = w.assign(Expr(f"wp.abs({a.src}) * 2.0", "float32", 2.0, None, atom=False), "dist")
        w.store(w.add_array("out", "float32", "output"), Expr(f"{dist.src} + 1.0", "float32", 3.0, None))
        w.store_intermediate()
        assert [x.name for x in w.args if x.role == "output"] == ["wave_out", "out", "dist_out"], w.lines


def test_a_matrix_output_is_added_to_as_a_value_and_never_lerped():
    """The translation has no matrix atomics and no wp.lerp of matrices: `m[i] = m[i] + value`, or
    the explicit mix."""
    import re

    kinds = set()
    for seed in range(30):
        w = _updated("mat33", seed)
        line = next(l.strip() for l in w.lines if l.strip().startswith(f"{_inout(w)}[tid, j]"))
        assert "+=" not in line and "wp.lerp" not in line, line
        if re.fullmatch(r"loss\[tid, j\] = loss\[tid, j\] \+ a\[tid, j\] \* 2\.0", line):
            kinds.add("added")
        elif re.fullmatch(r"(\w+)\[tid, j\] = \(1\.0 - (\w+)\) \* \1\[tid, j\] \+ \2 \* \(a\[tid, j\] \* 2\.0\)", line):
            kinds.add("mixed")
    assert kinds == {"added", "mixed"}


def test_a_description_says_each_feature_once():
    from synthesis.exprgen import feature_list

    assert feature_list(["sigmoid", "@wp.func helper (sigmoid)", "module constants", "module constants"]) == \
        "@wp.func helper (sigmoid); module constants"
    # a name that is only the start of another name is a feature of its own
    assert feature_list(["wp.mesh_query_aabb", "while wp.mesh_query_aabb_next"]) == \
        "wp.mesh_query_aabb; while wp.mesh_query_aabb_next"


def _vector_as_components(name: str, seed: int):
    """A kernel storing a vec3 as three arrays of its own (`{name}_x`, `_y`, `_z`), then update_outputs."""
    import random

    from synthesis.exprgen import Expr, KernelWriter

    w = KernelWriter(random.Random(seed), "k_0123456789", "vector", seed, (16,))
    a = w.add_array("a", "vec3", "input")
    for c, part in enumerate("xyz"):
        w.store(w.add_array(f"{name}_{part}", "float32", "output"), Expr(f"{a}[tid][{c}]", "float32", 1.0, None))
    w.update_outputs()
    return "\n".join(w.lines)


def test_a_vectors_components_stored_apart_are_updated_alike():
    """`f_x[tid] += ...` beside `f_y[tid] = ...` adds to one component of a force and overwrites the others
    (9 of 800 vector kernels and 7 of 800 matrix kernels, session 60): the components of one vector are
    all added to or none. A normal's components (`n_out_y`) are no `y` that sums: never added to."""
    summed = 0
    for seed in range(30):
        force = _vector_as_components("force", seed)
        ops = {op for op in re.findall(r"^\s+force_[xyz]\[tid\] (\+=|=)", force, re.M)}
        assert len(ops) == 1, force
        summed += ops == {"+="}
        assert "+=" not in _vector_as_components("n_out", seed)
    assert summed > 5
