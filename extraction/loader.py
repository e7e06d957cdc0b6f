"""Turn Python source that the pipeline generated into live `wp.Kernel` objects.

Warp reads kernel source through `inspect`, so the source is registered with `linecache` under a
unique pseudo-filename before it is executed. Only pipeline-generated code goes through here: a
user's file given to the translator is parsed, never executed.

The generator has already parsed each kernel's source (its checks read the tree). Given that tree,
the loader hands each function's part of it to Warp, whose decorator would otherwise parse the
function's source again (a quarter of a millisecond per kernel, a twentieth of Warp's work). The
code Warp emits is the same, byte for byte (tests/extraction/test_loader.py).
"""
from __future__ import annotations

import ast
import linecache
import sys
import types
from typing import Any

from extraction import warp_compat

PRELUDE = "import warp as wp\n\n"
PRELUDE_LINES = PRELUDE.count("\n")


class KernelLoadError(RuntimeError):
    pass


def load_kernels(source: str, module_name: str, tree: ast.Module | None = None) -> dict[str, Any]:
    """Execute generated `source` as module `module_name`; return its kernels by name. `tree`:
    `ast.parse(source)`, when the caller has it, for Warp to read instead of parsing each function
    again; it is Warp's afterwards (its line numbers are changed)."""
    warp_compat.init_warp()
    text = PRELUDE + source
    filename = f"<generated:{module_name}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    module = types.ModuleType(module_name)
    module.__file__ = filename
    sys.modules[module_name] = module
    try:
        code = compile(text, filename, "exec")
        if tree is not None:
            share_function_trees(code, tree)
        with warp_compat.function_ids_restored():  # a helper's C++ name, whatever was loaded before
            exec(code, module.__dict__)
    except Exception as exc:  # the reason is recorded per sample by the caller
        unload(module_name)
        raise KernelLoadError(f"{type(exc).__name__}: {exc}") from exc
    kernels = {k: v for k, v in module.__dict__.items() if type(v).__name__ == "Kernel"}
    if not kernels:
        unload(module_name)
        raise KernelLoadError("source defines no @wp.kernel")
    return kernels


def unload(module_name: str) -> None:
    """Forget everything `load_kernels` registered for `module_name`, and the Warp module of each of
    its kernels that has one of its own (`@wp.kernel(module="unique")`)."""
    module = sys.modules.pop(module_name, None)
    for value in (module.__dict__.values() if module is not None else ()):
        if type(value).__name__ == "Kernel" and value.module.name != module_name:
            warp_compat.forget_module(value.module.name)
    linecache.cache.pop(f"<generated:{module_name}>", None)
    warp_compat.forget_module(module_name)


def share_function_trees(code: types.CodeType, tree: ast.Module) -> int:
    """Before the module compiled as `code` runs: give Warp, for each function defined at its top
    level, that function's part of `tree` (the parse of the module's source without PRELUDE), moved
    to the lines Warp numbers it by (its own source, from its first decorator). A function whose
    source Warp would cut differently is left to Warp. Returns how many functions were given."""
    defs = {}
    for node in tree.body:
        if type(node) is ast.FunctionDef:
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            defs[(node.name, first + PRELUDE_LINES)] = node  # the line numbers of the code object
    given = 0
    for const in code.co_consts:
        if type(const) is not types.CodeType:
            continue
        fn = defs.get((const.co_name, const.co_firstlineno))
        if fn is None:
            continue
        found = warp_compat.function_source(const)
        if found is None:
            continue
        source, first_line = found
        shift = PRELUDE_LINES + 1 - first_line  # a line of `tree` -> the same line of `source`
        if not _holds_only(source, fn.end_lineno + shift):
            continue
        _shift_lines(fn, shift)
        warp_compat.share_function_tree(const, source, first_line, ast.Module(body=[fn], type_ignores=[]))
        given += 1
    return given


def _holds_only(source: str, last_line: int) -> bool:
    """Whether `source`, cut for a function ending on its line `last_line`, parses to that function
    alone: it starts unindented (nothing to dedent), reaches that line, and holds nothing after it
    but blank lines and comments."""
    lines = source.splitlines()
    if len(lines) < last_line or not lines or lines[0][:1].isspace():
        return False
    return all(not line.strip() or line.lstrip().startswith("#") for line in lines[last_line:])


# Node classes with positions, and those with children to visit (operators and contexts have neither:
# the parser shares one instance of each between trees, so they must never be changed).
_AST_CLASSES = [c for c in vars(ast).values() if isinstance(c, type) and issubclass(c, ast.AST)]
_POSITIONED = {c: "lineno" in c._attributes for c in _AST_CLASSES}
_VISITED = {c: _POSITIONED[c] or bool(c._fields) for c in _AST_CLASSES}


def _shift_lines(root: ast.AST, shift: int) -> None:
    """`ast.increment_lineno(root, shift)`, faster (it is on the per-kernel path): names and constants,
    most of a tree, are shifted without a visit of their own."""
    name, constant = ast.Name, ast.Constant
    stack = [root]
    while stack:
        node = stack.pop()
        if _POSITIONED[type(node)]:
            node.lineno += shift
            node.end_lineno += shift
        for field in node._fields:
            value = getattr(node, field, None)
            for item in value if type(value) is list else (value,):
                cls = type(item)
                if cls is name or cls is constant:
                    item.lineno += shift
                    item.end_lineno += shift
                elif _VISITED.get(cls):
                    stack.append(item)
