"""Loading generated kernels, and handing Warp the generator's parse of them."""
from __future__ import annotations

import ast

import pytest

from extraction.ir_extractor import extract_ir_devices
from extraction.loader import load_kernels, unload
from synthesis.categories import CATEGORY_NAMES, generate

KERNELS = [generate(category, seed) for category in CATEGORY_NAMES for seed in (3, 11)]


def _adjoints(kernels: dict) -> list:
    """The Warp adjoints of a loaded module's kernels and of the @wp.func helpers they call."""
    found = []
    for kernel in kernels.values():
        found.append(kernel.adj)
        module = kernel.module
        for function in module.functions.values():
            found.extend(f.adj for f in getattr(function, "user_overloads", {}).values() or [function])
    return found


def _positions(tree: ast.AST) -> str:
    return ast.dump(tree, include_attributes=True)


def _counting_handoffs(monkeypatch) -> list[int]:
    """How many functions each load hands to Warp, from now on in this test."""
    from extraction import loader

    handed: list[int] = []
    real = loader.share_function_trees

    def counted(code, tree):
        handed.append(real(code, tree))
        return handed[-1]

    monkeypatch.setattr(loader, "share_function_trees", counted)
    return handed


@pytest.mark.parametrize("spec", KERNELS, ids=lambda s: s.name)
def test_a_handed_tree_is_the_parse_warp_makes_of_each_functions_source(spec, monkeypatch):
    handed = _counting_handoffs(monkeypatch)
    tree = ast.parse(spec.source)
    kernels = load_kernels(spec.source, "handed", tree)
    try:
        assert handed == [sum(type(node) is ast.FunctionDef for node in tree.body)]  # every one given
        adjoints = _adjoints(kernels)
        assert adjoints
        for adj in adjoints:
            assert _positions(adj.tree) == _positions(ast.parse(adj.source)), adj.fun_name
    finally:
        unload("handed")


@pytest.mark.parametrize("spec", KERNELS, ids=lambda s: s.name)
def test_warps_code_is_the_same_with_the_generators_tree_or_without(spec):
    def code(tree):
        kernel = load_kernels(spec.source, "either", tree)[spec.name]
        try:
            return extract_ir_devices(kernel, ("cpu", "cuda"), True, spec.block_dim)
        finally:
            unload("either")

    assert code(ast.parse(spec.source)) == code(None)


def test_only_top_level_functions_are_handed_and_nested_ones_parsed_by_warp(monkeypatch):
    source = (
        "def make(scale: float):\n"
        "    @wp.kernel\n"
        "    def scaled(a: wp.array(dtype=float)):\n"
        "        i = wp.tid()\n"
        "        a[i] = a[i] * scale\n"
        "    return scaled\n"
        "\n"
        "@wp.func\n"
        "def twice(x: float):\n"
        "    return 2.0 * x\n"
        "\n"
        "@wp.kernel\n"
        "def doubled(a: wp.array(dtype=float)):\n"
        "    i = wp.tid()\n"
        "    a[i] = twice(a[i])\n"
        "\n"
        "inner = make(3.0)\n"
    )
    handed = _counting_handoffs(monkeypatch)
    kernels = load_kernels(source, "nested", ast.parse(source))
    try:
        assert handed == [3]  # make, twice, doubled: the module's own functions
        assert set(kernels) == {"doubled", "inner"}
        inner = kernels["inner"].adj
        assert _positions(inner.tree) == _positions(ast.parse(inner.source))
        assert inner.source.lstrip().startswith("@wp.kernel")
    finally:
        unload("nested")

