"""A user's source file, read safely: size and encoding limits, parse limits, and each kernel's own code.

Nothing here imports or executes the file. The limits are stated once, here, and in `--help`.
"""
from __future__ import annotations

import ast
import bisect
import io
import tokenize
from dataclasses import dataclass, field

MAX_SOURCE_BYTES = 16 * 1024 * 1024  # larger files are refused before parsing
MAX_NESTING = 1000  # AST levels inside one function (a 1000-term sum is 1000 levels)


class SourceError(Exception):
    """The file cannot be used at all; the message is one line."""


def decode_source(data: bytes, filename: str) -> str:
    """Python source text, or SourceError for binary, undecodable or oversized files."""
    if len(data) > MAX_SOURCE_BYTES:
        raise SourceError(f"{filename}: error: file of {len(data)} bytes is over the limit of {MAX_SOURCE_BYTES} bytes")
    if b"\0" in data:
        raise SourceError(f"{filename}: error: binary file (contains NUL bytes), not Python source")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError) as exc:
        reason = exc.reason if isinstance(exc, UnicodeDecodeError) else str(exc).splitlines()[0]
        raise SourceError(f"{filename}: error: cannot decode as Python source ({reason})") from None


def parse_source(source: str, filename: str) -> ast.Module:
    """The module's AST; Python's own parser limits become one-line errors."""
    try:
        return ast.parse(source, filename)
    except SyntaxError as exc:
        raise SourceError(f"{filename}:{exc.lineno or 0}:{exc.offset or 0}: error: invalid Python syntax ({exc.msg})") from None
    except (RecursionError, MemoryError):
        raise SourceError(f"{filename}: error: an expression is nested too deeply or is too large for Python's parser") from None
    except ValueError as exc:  # e.g. source with NUL bytes that escaped the check
        raise SourceError(f"{filename}: error: cannot parse: {exc}") from None


def nesting_depth(node: ast.AST) -> int:
    """Deepest chain of AST nodes below `node` (iterative: it must work on any tree)."""
    deepest = 0
    stack = [(node, 1)]
    while stack:
        n, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(n))
    return deepest


def decorated_start(node: ast.stmt) -> int:
    """First line of a statement, decorators included."""
    decorators = getattr(node, "decorator_list", [])
    return min([d.lineno for d in decorators] + [node.lineno])


def _is_overload(decorator: ast.AST) -> bool:
    return isinstance(decorator, ast.Attribute) and decorator.attr == "overload"


def _is_overload_stub(node: ast.stmt) -> bool:
    """`@wp.overload def k(...)`: it names an instance of the generic kernel `k`, it does not define `k`."""
    return isinstance(node, ast.FunctionDef) and any(_is_overload(d) for d in node.decorator_list)


def _is_module_options(node: ast.stmt) -> bool:
    """`wp.set_module_options({...})` at the top level: how Warp builds every kernel of the module
    (`enable_backward`, `fast_math`...); a kernel cut out of the file keeps it."""
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
        and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "set_module_options"


def _bound_names(node: ast.stmt) -> set[str]:
    """Module-level names a top-level statement defines."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names if a.name != "*"}
    targets: list[ast.AST] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        targets = [node.target]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _free_names(node: ast.stmt) -> set[str]:
    """Names a top-level statement reads from the module: loads minus its own parameters and locals."""
    loaded = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        a = node.args
        local = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
        local |= {x.arg for x in (a.vararg, a.kwarg) if x is not None}
        local |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        # decorators and annotations are evaluated in the module's scope
        outer = [*node.decorator_list, *(x.annotation for x in a.args if x.annotation), node.returns]
        needed = {n.id for e in outer if e is not None for n in ast.walk(e) if isinstance(n, ast.Name)}
        return (loaded - local) | needed
    return loaded


@dataclass
class SourceIndex:
    """Top-level statements of a file with what each defines and reads, to cut out one kernel's code."""

    lines: list[str]
    statements: list[ast.stmt]
    defines: dict[str, list[int]]  # name -> indices of the statements that bind it
    _reads: dict[int, set[str]] = field(default_factory=dict)  # computed when first needed
    _starts: list[int] = field(default_factory=list)  # each statement's first line, computed when first needed

    def reads(self, k: int) -> set[str]:
        if k not in self._reads:
            self._reads[k] = _free_names(self.statements[k])
        return self._reads[k]

    @classmethod
    def build(cls, source: str, tree: ast.Module) -> "SourceIndex":
        statements = list(tree.body)
        defines: dict[str, list[int]] = {}
        for k, stmt in enumerate(statements):
            if isinstance(stmt, ast.If):  # `if __name__ == "__main__":` and other run-time code
                continue
            for name in _bound_names(stmt):
                defines.setdefault(name, []).append(k)
        return cls(source.splitlines(), statements, defines)

    def span_chars(self, k: int) -> int:
        """Characters of statement `k`'s lines."""
        stmt = self.statements[k]
        return sum(len(line) + 1 for line in self.lines[stmt.lineno - 1: stmt.end_lineno])

    def closure(self, function: str) -> set[int]:
        """Indices of the top-level function `function` and every statement it needs, transitively."""
        start = [k for k in self.defines.get(function, []) if isinstance(self.statements[k], ast.FunctionDef)
                 and not _is_overload_stub(self.statements[k])]
        options = [k for k, stmt in enumerate(self.statements) if _is_module_options(stmt)] if start else []
        return self.closure_of(start[-1:] + options)

    def needed_by(self, names: set[str]) -> set[int]:
        """Indices of the statements defining `names` and every statement those need, transitively."""
        return self.closure_of([k for name in sorted(names) for k in self.defines.get(name, [])
                                if not _is_overload_stub(self.statements[k])])

    def statement_at(self, line: int) -> int:
        """Index of the top-level statement holding `line` (decorators included)."""
        if not self._starts:
            self._starts.extend(decorated_start(s) for s in self.statements)
        return bisect.bisect_right(self._starts, line) - 1

    def closure_of(self, start: list[int]) -> set[int]:
        """The statements `start` and every statement they need, transitively."""
        keep: set[int] = set()
        todo = list(start)
        while todo:
            k = todo.pop()
            if k in keep:
                continue
            keep.add(k)
            for name in self.reads(k):
                todo.extend(self.defines.get(name, []))
        return keep

    def only(self, keep: set[int]) -> str:
        """The source with every line outside the statements `keep` blanked (line numbers kept)."""
        rows: set[int] = set()
        for k in keep:
            stmt = self.statements[k]
            rows.update(range(decorated_start(stmt) - 1, stmt.end_lineno))
        return "\n".join(line if row in rows else "" for row, line in enumerate(self.lines)) + "\n"

    def kernel_source(self, *kernels: str, omit_imports: tuple[str, ...] = ("wp",)) -> str:
        """The kernels and what they depend on, in file order: the @wp.func helpers they call
        (transitively), the constants, structs and imports they use. Never the file's other code."""
        return self.statements_source(set().union(*(self.closure(name) for name in kernels)), omit_imports)

    def statements_source(self, keep: set[int], omit_imports: tuple[str, ...] = ("wp",)) -> str:
        """The statements `keep`, in file order, each with its decorators (the `import warp as wp` left out)."""
        if not keep:
            return ""
        parts = []
        for k in sorted(keep):
            stmt = self.statements[k]
            if isinstance(stmt, ast.Import) and all((a.asname or a.name) in omit_imports for a in stmt.names):
                continue  # the sample's .py starts with `import warp as wp`
            first = decorated_start(stmt)
            parts.append("\n".join(self.lines[first - 1: stmt.end_lineno]))
        return "\n\n\n".join(parts) + "\n"
