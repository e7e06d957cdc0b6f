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
