"""Structural fingerprints of kernels: identifiers renamed canonically, literals replaced."""
from __future__ import annotations

import ast
import hashlib

# Names that carry structure (Warp builtins and Python keywords-as-functions) keep their identity.
KEEP = {"wp", "float", "int", "range", "min", "max", "abs"}


class _Canonical(ast.NodeTransformer):
    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def _rename(self, name: str) -> str:
        if name in KEEP:
            return name
        return self.names.setdefault(name, f"n{len(self.names)}")

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.copy_location(ast.Name(self._rename(node.id), node.ctx), node)

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg = self._rename(node.arg)
        self.generic_visit(node)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.name = self._rename(node.name)
        self.generic_visit(node)
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        return ast.copy_location(ast.Constant(type(node.value).__name__), node)


def structure_hash(source: str) -> str:
    """Equal for two kernels that differ only in names and numeric literals."""
    tree = _Canonical().visit(ast.parse(source))
    return hashlib.sha256(ast.dump(tree, annotate_fields=False).encode()).hexdigest()
