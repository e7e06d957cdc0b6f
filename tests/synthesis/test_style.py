"""One spelling per module for what Warp spells several ways (synthesis.style)."""
import ast

from hypothesis import given, settings
from hypothesis import strategies as st

from synthesis.categories import CATEGORY_NAMES, generate
from scripts.style_tells import scatter_adds
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


# ---- scatter adds: `wp.atomic_add(a, i, v)` / `a[i] += v` ----------------------------------------
def test_a_scatter_add_takes_the_spelling_of_the_first():
    source = _kernel("b: wp.array(dtype=int), v: wp.array(dtype=float), hist: wp.array(dtype=int), sums: wp.array(dtype=float)",
                     "hist[b[tid]] += 1\n    wp.atomic_add(sums, b[tid], v[tid] * 2.0)")
    want = _kernel("b: wp.array(dtype=int), v: wp.array(dtype=float), hist: wp.array(dtype=int), sums: wp.array(dtype=float)",
                   "hist[b[tid]] += 1\n    sums[b[tid]] += v[tid] * 2.0")
    assert consistent_spellings(source) == want


def test_a_call_first_turns_element_updates_into_calls_of_their_own_operation():
    source = ("@wp.kernel\ndef k(c: wp.array2d(dtype=int), g: wp.array2d(dtype=float), w: wp.array(dtype=float)):\n"
              "    i, j = wp.tid()\n    wp.atomic_add(w, c[i, j], 1.0)\n    g[c[i, j], wp.min(j, 3)] += w[i]\n"
              "    g[0, j] -= 0.5\n")
    want = ("@wp.kernel\ndef k(c: wp.array2d(dtype=int), g: wp.array2d(dtype=float), w: wp.array(dtype=float)):\n"
            "    i, j = wp.tid()\n    wp.atomic_add(w, c[i, j], 1.0)\n    wp.atomic_add(g, c[i, j], wp.min(j, 3), w[i])\n"
            "    wp.atomic_sub(g, 0, j, 0.5)\n")
    assert consistent_spellings(source) == want


def test_own_element_updates_locals_and_used_results_are_not_scatter_adds():
    # out[tid] += v is a running total over launches, C[r, c] a local matrix's entry, slot's atomic a
    # value the kernel reads: each stays as written beside a scatter add spelled the other way
    source = _kernel("g: wp.array(dtype=int), out: wp.array(dtype=float), sums: wp.array(dtype=float), n: wp.array(dtype=int)",
                     "wp.atomic_add(sums, g[tid], 1.0)\n    out[tid] += 1.0\n    C = wp.mat22()\n    C[0, 1] += 2.0\n"
                     "    slot = wp.atomic_add(n, 0, 1)\n    sums[slot] -= 1.0")
    want = source.replace("sums[slot] -= 1.0", "wp.atomic_sub(sums, slot, 1.0)")
    assert consistent_spellings(source) == want


def _other_spelling(node: ast.stmt) -> ast.stmt:
    if isinstance(node, ast.Expr):
        array, *index, value = node.value.args
        slice_ = index[0] if len(index) == 1 else ast.Tuple(index, ast.Load())
        op = ast.Add() if node.value.func.attr == "atomic_add" else ast.Sub()
        return ast.AugAssign(ast.Subscript(array, slice_, ast.Store()), op, value)
    index = node.target.slice.elts if isinstance(node.target.slice, ast.Tuple) else [node.target.slice]
    name = "atomic_add" if isinstance(node.op, ast.Add) else "atomic_sub"
    call = ast.Call(ast.Attribute(ast.Name("wp", ast.Load()), name, ast.Load()),
                    [ast.Name(node.target.value.id, ast.Load()), *index, node.value], [])
    return ast.Expr(call)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), category=st.sampled_from(["atomic", "atomic", "atomic", "nested_loop", "particles", "combined"]))
def test_a_generated_module_spells_its_scatter_adds_one_way_and_a_flipped_one_is_spelled_back(seed, category):
    tree = ast.parse(generate(category, seed).source)
    statements = [s for fn in tree.body if isinstance(fn, ast.FunctionDef) for s in scatter_adds(fn)]
    assert len({spelling for _, spelling in statements}) <= 1
    if len(statements) < 2:
        return
    written = ast.dump(ast.parse(ast.unparse(tree)))
    last = max((node for node, _ in statements), key=lambda node: node.lineno)
    flipped = ast.unparse(_Replace(last, _other_spelling(last)).visit(tree))
    assert ast.dump(ast.parse(flipped)) != written
    assert ast.dump(ast.parse(consistent_spellings(flipped))) == written


class _Replace(ast.NodeTransformer):
    """The statement `old` (this very node) replaced by `new`."""

    def __init__(self, old: ast.stmt, new: ast.stmt) -> None:
        self.old, self.new = old, new

    def generic_visit(self, node):
        return self.new if node is self.old else super().generic_visit(node)
