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

from synthesis.normalize import child_fields, parse_module

_COMPOUND = (ast.If, ast.For, ast.While, ast.With)


def _module_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


# Per node class: the fields that can hold a Name (`child_fields` less contexts and operators).
_NAME_FIELDS = {cls: tuple(f for f in child_fields(cls) if f not in ("ctx", "op", "ops"))
                for cls in (getattr(ast, n) for n in dir(ast)) if isinstance(cls, type) and issubclass(cls, ast.AST)}


def _reads(stmt: ast.stmt, name: str) -> bool:
    """Whether a node of `ast_walk(stmt)` loads `name`: a depth-first search that stops at the first
    (the statement's text holds the name, so it usually does, early)."""
    stack = [stmt]
    while stack:
        node = stack.pop()
        cls = type(node)
        if cls is ast.Name or isinstance(node, ast.Name):
            if node.id == name and isinstance(node.ctx, ast.Load):
                return True
            continue
        fields = _NAME_FIELDS.get(cls)
        for field in child_fields(cls) if fields is None else fields:
            value = getattr(node, field, None)
            if type(value) is list:
                stack += [item for item in value if isinstance(item, ast.AST)]
            elif isinstance(value, ast.AST):
                stack.append(value)
    return False


def _decorator_names_warp(d: ast.expr) -> bool:
    """Whether `ast.unparse(d)` contains "kernel" or "func". The common shapes (`name`, `wp.kernel`,
    and calls of them) are written out as unparse writes them, without unparse (slow); a call's text
    starts with its callee's, so a callee that names one decides."""
    node = d.func if isinstance(d, ast.Call) else d
    if isinstance(node, ast.Name):
        text = node.id
    elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        text = f"{node.value.id}.{node.attr}"
    else:
        text = None
    if text is not None and ("kernel" in text or "func" in text):
        return True
    if text is not None and node is d:
        return False
    unparsed = ast.unparse(d)
    return "kernel" in unparsed or "func" in unparsed


def _is_warp_function(fn: ast.FunctionDef) -> bool:
    return any(_decorator_names_warp(d) for d in fn.decorator_list)


def _binds_no_module_name(source: str) -> bool:
    """True when no line starts, at column 0, with anything but a decorator, `def `, `class ` or a
    comment: a module-level assignment starts a line at column 0 (or follows `;` on a line that
    starts with a simple statement), so such a source binds no module-level name. Most generated
    kernels have no module constant: they skip the parse."""
    for line in source.splitlines():
        if line and line[0] not in " \t@#" and not line.startswith(("def ", "class ")):
            return False
    return True


def global_first_read_in_branch(source: str) -> str | None:
    """`function: NAME` for the first module-level name read first inside a compound statement of a
    Warp kernel or function and read again in a later statement of its body; None if there is none.
    A source that binds no module-level name is not parsed (nor checked for syntax)."""
    if _binds_no_module_name(source):
        return None
    tree = parse_module(source)
    module_names = _module_names(tree)
    if not module_names:
        return None
    lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")  # the parser's line numbers
    for fn in tree.body:
        if not (isinstance(fn, ast.FunctionDef) and _is_warp_function(fn)):
            continue
        # a statement's text must contain a name for the statement to read it: walk only those
        texts = ["\n".join(lines[stmt.lineno - 1:stmt.end_lineno]) for stmt in fn.body]
        for name in sorted(module_names):
            reading = [stmt for stmt, text in zip(fn.body, texts) if name in text and _reads(stmt, name)]
            if len(reading) >= 2 and isinstance(reading[0], _COMPOUND):
                return f"{fn.name}: {name}"
    return None
