"""One spelling per module for what Warp spells several ways (synthesis.style)."""
import ast

from hypothesis import given, settings
from hypothesis import strategies as st

from synthesis.categories import CATEGORY_NAMES, generate
from synthesis.style import consistent_spellings


def _kernel(params: str, body: str = "x[tid] = x[tid]") -> str:
    return f"@wp.kernel\ndef k({params}):\n    tid = wp.tid()\n    {body}\n"


def test_array_annotations_take_the_first_form():
    source = _kernel("x: wp.array(dtype=float), y: wp.array[float], z: wp.array2d[float]")
    assert consistent_spellings(source) == _kernel("x: wp.array(dtype=float), y: wp.array(dtype=float), z: wp.array2d(dtype=float)")


def test_subscript_form_first_makes_every_array_a_subscript():
    source = _kernel("x: wp.array[wp.int32], y: wp.array(dtype=int)")
    assert consistent_spellings(source) == _kernel("x: wp.array[wp.int32], y: wp.array[wp.int32]")


def test_scalar_types_take_the_first_spelling_everywhere_a_type_is_written():
    source = ("@wp.func\ndef f(a: wp.float32, b: int) -> float:\n    return a\n\n"
              + _kernel("x: wp.array(dtype=float), n: wp.int32", "t = wp.tile_zeros(shape=4, dtype=float)"))
    want = ("@wp.func\ndef f(a: wp.float32, b: wp.int32) -> wp.float32:\n    return a\n\n"
            + _kernel("x: wp.array(dtype=wp.float32), n: wp.int32", "t = wp.tile_zeros(shape=4, dtype=wp.float32)"))
    assert consistent_spellings(source) == want


def test_casts_are_a_family_of_their_own():
    source = _kernel("x: wp.array(dtype=wp.float32)", "x[tid] = float(tid) + wp.float32(tid)")
    assert consistent_spellings(source) == _kernel("x: wp.array(dtype=wp.float32)", "x[tid] = float(tid) + float(tid)")


def test_min_max_abs_take_the_first_spelling():
    source = _kernel("x: wp.array(dtype=float)", "x[tid] = wp.min(abs(x[tid]), max(x[tid], 0.0))")
    assert consistent_spellings(source) == _kernel("x: wp.array(dtype=float)", "x[tid] = wp.min(wp.abs(x[tid]), wp.max(x[tid], 0.0))")


def test_an_array_call_with_more_than_dtype_is_left_as_written():
    source = _kernel("x: wp.array[float], y: wp.array(dtype=float, ndim=2)")
    assert consistent_spellings(source) == source


class _OneSpelling(ast.NodeTransformer):
    """Every family's spellings mapped to one: the program a module is, whatever it spells."""

    NAMES = {"wp.float32": "float", "wp.int32": "int", "wp.min": "min", "wp.max": "max", "wp.abs": "abs"}

    def visit_Attribute(self, node):
        text = ast.unparse(node)
        return ast.Name(self.NAMES[text], ast.Load()) if text in self.NAMES else self.generic_visit(node)

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if ast.unparse(node.value).startswith("wp.array"):
            return ast.Call(node.value, [], [ast.keyword("dtype", node.slice)])
        return node


def _program(source: str) -> str:
    return ast.dump(_OneSpelling().visit(ast.parse(source)))


def _spellings(source: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(source)):
        text = ast.unparse(node) if isinstance(node, (ast.Name, ast.Attribute)) else ""
        if isinstance(node, ast.Subscript) and ast.unparse(node.value).startswith("wp.array"):
            found.setdefault("array", set()).add("subscript")
        elif isinstance(node, ast.Call) and ast.unparse(node.func).startswith("wp.array"):
            found.setdefault("array", set()).add("call")
        elif text in ("min", "max", "abs", "wp.min", "wp.max", "wp.abs"):
            found.setdefault("builtin", set()).add(text.startswith("wp."))
    return found


@settings(max_examples=60, deadline=None)
@given(category=st.sampled_from(CATEGORY_NAMES), seed=st.integers(0, 2**31))
def test_generated_modules_spell_each_family_one_way_and_mean_the_same(category, seed):
    source = generate(category, seed).source
    assert all(len(styles) == 1 for styles in _spellings(source).values())
    assert consistent_spellings(source) == source
    mixed = source.replace("wp.array(dtype=float)", "wp.array[float]", 1).replace("wp.min(", "min(", 1)
    assert _program(consistent_spellings(mixed)) == _program(source)
