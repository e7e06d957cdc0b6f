"""Source patterns that Warp 1.19's code generator compiles into wrong code, found on the AST.

A generated kernel that contains one is redrawn (`synthesis.categories.generate`): its expected
values would be Warp's wrong ones, and a model should not learn a pattern its compiler breaks.

Module-level name first read inside a branch (NVIDIA/warp#1574, fixed after 1.19): Warp binds a
global to a kernel-local symbol where it is first read. Read first inside an `if` whose branches
both read it, the symbol is merged (`wp::where`) inside that branch's scope, and a read after the
`if` uses the merged variable, which is never assigned when the branch does not run. Example:

    if x > 1.0:
        r = 1.0
    else:
        if x > 0.0:
            r = C
        else:
            r = C * 2.0
    if C < float(i):  # C is uninitialised here for threads with x > 1.0
        ...

The check is deliberately wider than the bug (any first read inside a compound statement, any
later read at the top level): it costs a redraw of about 1% of kernels and cannot miss a case.
"""
from __future__ import annotations

import ast

_COMPOUND = (ast.If, ast.For, ast.While, ast.With)


def _module_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _reads(stmt: ast.stmt, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) for n in ast.walk(stmt))


def _is_warp_function(fn: ast.FunctionDef) -> bool:
    return any("kernel" in ast.unparse(d) or "func" in ast.unparse(d) for d in fn.decorator_list)


def global_first_read_in_branch(source: str) -> str | None:
    """`function: NAME` for the first module-level name read first inside a compound statement of a
    Warp kernel or function and read again in a later statement of its body; None if there is none."""
    tree = ast.parse(source)
    module_names = _module_names(tree)
    for fn in tree.body:
        if not (isinstance(fn, ast.FunctionDef) and _is_warp_function(fn)):
            continue
        for name in sorted(module_names):
            reading = [stmt for stmt in fn.body if _reads(stmt, name)]
            if len(reading) >= 2 and isinstance(reading[0], _COMPOUND):
                return f"{fn.name}: {name}"
    return None
