"""synthesis.exprgen: the name scanner the writer's pruning and `varies` rely on."""
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from synthesis.exprgen import NAME_TOKEN

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


# ---- composed texts' trees ----------------------------------------------------------------------
PART_TEXTS = ["x", "3", "0.5", "-0.5", "-x", "x + y", "x - y", "x * y", "x / 2.0", "x < y", "x >= 1",
              "(x < y) and (y < 1)", "(x < y) or (y < 1)", "not (x < y)", "wp.abs(x)", "v.x", "v[0]",
              "a[tid]", "float(tid)", "x // 3", "x % (-2)", "-(x + y)", "wp.min(x, y)"]
TEMPLATES = ["{0} + {1}", "({0}) + {1}", "{0} + ({1})", "({0}) - ({1})", "{0} * {1}", "{0} / 2.0", "-{0}", "-({0})",
             "{0} < {1}", "{0} >= {1}", "({0}) and ({1})", "{0} or {1}", "not ({0})", "not {0}", "wp.abs({0})",
             "wp.min({0}, {1})", "{0} / (abs({1}) + 0.5)", "wp.where({0}, {1}, {2})", "0.5 * ({0})", "{0} // 3",
             "wp.clamp({0}, -2.0, 2.0)", "{0}.x", "{0}[1]", "{0} ** {1}", "{0} if {1} else {2}", "[{0}, {1}]"]


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.sampled_from(TEMPLATES), st.lists(st.sampled_from(PART_TEXTS), min_size=3, max_size=3))
def test_a_composed_tree_is_the_tree_its_text_parses_to(template, parts):
    """Where composed_tree builds a tree from the parts' trees, it is the tree the composed text
    parses to (its dump: fields, not positions); where a part could bind otherwise, it builds none."""
    import ast

    from synthesis.exprgen import composed_tree

    n = template.count("{")
    text = template.format(*parts[:n])
    tree = composed_tree(template, [ast.parse(p, mode="eval").body for p in parts[:n]])
    if tree is not None:
        assert ast.dump(tree) == ast.dump(ast.parse(text, mode="eval").body), text


def test_composition_covers_operands_in_and_out_of_brackets():
    """The common cases build a tree (none falls back to a parse): a sum of a primary and a negation,
    a bracketed sum in a product, a comparison of sums, a call of anything."""
    import ast

    from synthesis.exprgen import composed_tree

    for template, parts in (("{0} + {1}", ["x", "-y"]), ("({0}) * {1}", ["x + y", "z"]), ("{0} < {1}", ["x + y", "2"]),
                            ("wp.abs({0})", ["(x < y) or (y < 1)"])):
        assert composed_tree(template, [ast.parse(p, mode="eval").body for p in parts]) is not None


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_every_text_the_generators_compose_gets_its_parsed_tree(seed):
    """Over a drawn kernel's expressions (floats, ints, comparisons, conditions, stored values), each
    text made by compose gets from _parsed_expr the tree its own parse gives."""
    import ast

    from synthesis.categories import DrawRandom
    from synthesis.exprgen import ExprGen, KernelWriter

    w = KernelWriter(DrawRandom(seed), "k", "test", seed, (64,))
    loads = [w.add_array("a", "float32", "input", low=-2.0, high=2.0), w.add_array("b", "float32", "input")]
    w.add_scalar("n", "int32", 5)
    gen = ExprGen(w, ("add", "sub", "mul", "div_const", "div_safe", "min", "max", "abs", "neg", "sin", "exp", "log",
                      "sqrt", "pow", "floor", "clamp", "atan2"), loads=loads)
    for _ in range(4):
        w.assign(gen.float_expr(3))
        w.assign(gen.int_expr(2))
        gen.condition(2)
        gen.where(2)
        gen.meaningful(gen.output_expr(2))
    assert w._recipes
    for text in w._recipes:
        assert ast.dump(w._parsed_expr(text)) == ast.dump(ast.parse(text, mode="eval").body), text
