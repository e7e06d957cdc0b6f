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
