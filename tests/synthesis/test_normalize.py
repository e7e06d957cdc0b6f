"""The structural fingerprint and the fast ast.dump it is written with."""
import ast
import hashlib

import pytest

from synthesis.categories import CATEGORY_NAMES, generate
from synthesis.normalize import (KEEP, ast_children, ast_dump, ast_walk, parse_module, same_tree, structure_hash,
                                 take_module_tree)


class _Canonical(ast.NodeTransformer):
    """The fingerprint's definition, spelled as a tree rewrite: identifiers renamed n0, n1, ... in
    order of first appearance (KEEP excepted), literals replaced by their type's name, one spelling
    of `wp.float32`/`float`, `wp.min`/`min`, `wp.array[T]`/`wp.array(dtype=T)`."""

    BARE = {"float32": "float", "int32": "int", "min": "min", "max": "max", "abs": "abs"}

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def _rename(self, name: str) -> str:
        return name if name in KEEP else self.names.setdefault(name, f"n{len(self.names)}")

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.Name(self._rename(node.id), node.ctx)

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg = self._rename(node.arg)
        self.generic_visit(node)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.name = self._rename(node.name)
        self.generic_visit(node)
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        return ast.Constant(type(node.value).__name__)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if isinstance(node.value, ast.Name) and node.value.id == "wp" and node.attr in self.BARE:
            return ast.Name(self.BARE[node.attr], node.ctx)
        return self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        if ast.unparse(node.value) in ("wp.array", "wp.array2d", "wp.array3d"):
            return self.visit(ast.Call(node.value, [], [ast.keyword("dtype", node.slice)]))
        return self.generic_visit(node)


@pytest.mark.parametrize("category", CATEGORY_NAMES)
def test_ast_dump_writes_what_ast_dump_writes(category):
    tree = ast.parse(generate(category, 7).source)
    for node in [tree, *ast.walk(tree)]:
        assert ast_dump(node) == ast.dump(node, annotate_fields=False)


@pytest.mark.parametrize("category", CATEGORY_NAMES)
def test_structure_hash_is_the_digest_of_the_rewritten_tree(category):
    source = generate(category, 11).source
    text = ast.dump(_Canonical().visit(ast.parse(source)), annotate_fields=False)
    assert structure_hash(source) == hashlib.sha256(text.encode()).hexdigest()


def test_structure_hash_ignores_names_and_literals_but_not_operators():
    a = "def f(x):\n    return x * 2.0 + y\n"
    assert structure_hash(a) == structure_hash("def g(p):\n    return p * 7.5 + q\n")
    assert structure_hash(a) != structure_hash("def f(x):\n    return x - 2.0 + y\n")


def test_structure_hash_is_blind_to_spelling_but_not_to_types():
    a = "@wp.kernel\ndef k(x: wp.array(dtype=float), n: int):\n    x[0] = wp.min(float(n), 1.0)\n"
    respelled = "@wp.kernel\ndef k(x: wp.array[wp.float32], n: wp.int32):\n    x[0] = min(wp.float32(n), 1.0)\n"
    assert structure_hash(a) == structure_hash(respelled)
    assert structure_hash(a) != structure_hash(a.replace("dtype=float", "dtype=wp.float64"))


@pytest.mark.parametrize("category", CATEGORY_NAMES)
def test_ast_walk_yields_ast_walks_nodes_in_its_order(category):
    tree = ast.parse(generate(category, 5).source)
    assert [id(n) for n in ast_walk(tree)] == [id(n) for n in ast.walk(tree)]


def test_ast_children_are_iter_child_nodes_in_order():
    tree = ast.parse(generate("transform", 3).source)
    for node in ast.walk(tree):
        assert [id(c) for c in ast_children(node)] == [id(c) for c in ast.iter_child_nodes(node)]


def test_same_tree_is_equality_of_dumps():
    """same_tree answers what comparing ast_dump texts answers, on every pair of expressions of a
    kernel (most differ at the root, some deep inside) and on literals that compare equal in
    Python but are written differently (1, 1.0, True; 0.0 and -0.0; a u-string)."""
    sources = [generate(c, 11).source for c in ("multi_conditional", "matrix", "transform")]
    tree = ast.parse("\n".join(sources) + "\nx = (1, 1.0, True, u'a', 'a', a - b, a - b, a - c)\n")
    exprs = [n for n in ast.walk(tree) if isinstance(n, ast.expr)][:400]
    exprs += [ast.Constant(0.0), ast.Constant(-0.0)]
    dumps = [ast.dump(e, annotate_fields=False) for e in exprs]
    equal_pairs = 0
    for a, dump_a in zip(exprs, dumps):
        for b, dump_b in zip(exprs, dumps):
            assert same_tree(a, b) == (dump_a == dump_b)
            equal_pairs += a is not b and dump_a == dump_b
    assert equal_pairs > 0  # the comparison met equal trees that are different objects


def test_structure_hash_is_the_digest_of_the_rewritten_tree_on_uncommon_syntax():
    """Beyond generated kernels: the canonical dump's generic path (classes, lambdas, `**kwargs`, an
    unannotated argument, `del`, imports, a starred target, f-strings, a non-ASCII name) agrees with
    the rewrite too."""
    source = (
        "import numpy as np\nfrom a.b import c as d\nK = 3\n"
        "class S:\n    x: int = 1\n    def m(self, *a, k=2, **kw) -> 'T':\n        return lambda q, r=1: q + r\n"
        "@wp.func\ndef g(x, y: float = 0.5, *, z=None):\n    global K\n    del x[0], y.w\n"
        "    a, *b = f(*x, **{'k': 1}, j=2)\n    s = f'{a!r:>{K}} \\u00e9' + 'é'\n"
        "    for i, v in enumerate(b):\n        if not v or i is None:\n            continue\n"
        "    while True:\n        break\n    with open(s) as h:\n        pass\n"
        "    try:\n        raise ValueError(s)\n    except (ValueError, KeyError) as e:\n        pass\n"
        "    finally:\n        pass\n    assert a, 'message'\n    ñ = [c for c in range(3) if c]\n"
        "    return {k: v for k, v in {}.items()}, x[1:2, ...], -ñ, a @ b, (yield)\n"
    )
    text = ast.dump(_Canonical().visit(ast.parse(source)), annotate_fields=False)
    assert structure_hash(source) == hashlib.sha256(text.encode()).hexdigest()


def test_a_taken_tree_is_the_shared_parse_handed_over_once():
    source = "@wp.kernel\ndef k(a: wp.array(dtype=float)):\n    a[wp.tid()] = 1.0\n"
    shared = parse_module(source)
    assert parse_module(source) is shared
    assert take_module_tree(source) is shared
    assert take_module_tree(source) is None  # forgotten: the taker may change it
    again = parse_module(source)
    assert again is not shared
    assert ast.dump(again, include_attributes=True) == ast.dump(ast.parse(source), include_attributes=True)


def test_the_shared_parses_are_the_most_recently_used_few():
    sources = [f"x = {i}\n" for i in range(9)]
    first = parse_module(sources[0])
    for source in sources[1:8]:
        parse_module(source)
    assert parse_module(sources[0]) is first  # used again: now the most recent
    parse_module(sources[8])  # one more than the cache holds: the least recently used goes
    assert take_module_tree(sources[1]) is None
    assert take_module_tree(sources[0]) is first
