"""Kernels the translator sees only through a statement that would run: instances of a generic kernel and
kernels defined inside a function or block. Each becomes a module-level kernel under its own name.

Nothing is executed; both are resolved from the parsed file, the way Warp would resolve them when the code runs:

- A kernel defined inside a function (a kernel factory) reads the enclosing function's locals through
  its closure. Warp captures their values when it builds the kernel. Here a captured local is resolved
  statically, and only where its value cannot depend on the run: bound exactly once in the enclosing
  function, by `NAME = value` directly in its body before the kernel, to a literal, a constant
  expression (`wp.constant(...)`, arithmetic on constants) or a type (`wp.float32`). Anything else
  (a parameter of the factory, a loop variable, a value assigned twice) refuses the kernel with one
  line naming the captured name.
- A generic kernel (`Any`, `wp.types.Scalar`/`Float`/`Int` in a parameter's type) has no code until it
  is instantiated. Warp instantiates it from `wp.overload(kernel, {...})` / `wp.overload(kernel, [...])`
  calls and `@wp.overload` stubs; so do we, one kernel per overload. Without an overload in the file the
  user may declare the types (`--inputs`: `types = {param = "float32"}`; for an array, the element
  type); otherwise the kernel is refused, naming the parameter that needs a declared type.

Names: a kernel keeps its own name where it is the only kernel of that name in the file; otherwise a
nested kernel is named `<enclosing function>_<kernel>` and the overloads of a generic kernel
`<kernel>_<types>`, with `_2`, `_3`... in file order where that still collides. So output folders are
distinct and the same file always gives the same names.
"""
from __future__ import annotations

import ast
import copy
import re
from dataclasses import dataclass, field

from cuda_production.cuda_types import FLOAT_TYPES, NUMERIC_TYPES, TYPE_ALIASES

GENERIC_TYPES = frozenset({"Any", "Scalar", "Float", "Int"})  # Warp's generic type placeholders
# the types each placeholder but `Any` stands for (warp/types.py: Float, Int and Scalar type constraints)
GENERIC_SCALARS = {"Float": FLOAT_TYPES, "Int": tuple(t for t in NUMERIC_TYPES if t not in FLOAT_TYPES),
                   "Scalar": NUMERIC_TYPES}
_NOT_TYPE_LEAVES = frozenset({"wp", "warp", "types", "array", "array1d", "array2d", "array3d", "array4d", "dtype", "ndim"})


@dataclass
class KernelInstance:
    """A kernel the file defines only through a function call, a closure or an overload, as a module-level one."""

    name: str  # unique in the file: the output folder, the .cu and the def's name in its .py
    node: ast.FunctionDef  # the def, renamed and with concrete parameter types (locations: the user's file)
    original: ast.FunctionDef  # the def as written
    origin: str  # for metadata and messages: where the instance comes from
    constants: dict[str, tuple[str, object]] = field(default_factory=dict)  # captured name -> (type, value)
    type_aliases: dict[str, str] = field(default_factory=dict)  # captured name -> type
    annotations: dict[str, ast.expr] = field(default_factory=dict)  # parameter -> concrete type, where substituted

    def int_constants(self) -> dict[str, int]:
        return {n: v for n, (t, v) in self.constants.items() if t == "int32"}

    def python_text(self, lines: list[str]) -> tuple[str, int]:
        """The instance as module-level Python: the captured values, then the def (renamed, concrete types,
        dedented); and the line of the def within that text (1-based), to map Warp's lines back."""
        head = [f"{n} = {_literal(t, v)}" for n, (t, v) in self.constants.items()]
        head += [f"{n} = wp.{t}" for n, t in self.type_aliases.items()]  # the translator's type names are Warp's
        fn = self.original
        first = min([d.lineno for d in fn.decorator_list] + [fn.lineno])
        rows = [line.encode("utf-8") for line in lines[first - 1: fn.end_lineno]]
        edits: list[tuple[int, int, int, bytes]] = []  # (row, start, end, text): byte columns, as ast gives them
        for arg in fn.args.args:
            if arg.arg in self.annotations and arg.annotation is not None:
                a = arg.annotation
                if a.lineno != a.end_lineno:  # keep the line count: a parameter type over several lines is rewritten whole
                    return self._unparsed_text(head)
                edits.append((a.lineno - first, a.col_offset, a.end_col_offset,
                              ast.unparse(self.annotations[arg.arg]).encode("utf-8")))
        def_row = fn.lineno - first
        match = re.search(rb"\bdef\s+(" + re.escape(fn.name.encode()) + rb")\b", rows[def_row])
        if match is None:
            return self._unparsed_text(head)
        edits.append((def_row, match.start(1), match.end(1), self.name.encode()))
        for row, start, end, text in sorted(edits, reverse=True):
            rows[row] = rows[row][:start] + text + rows[row][end:]
        indent = rows[def_row][: fn.col_offset]  # the def's indentation, taken off every line that has it
        body = "\n".join((r[len(indent):] if r.startswith(indent) else r).decode("utf-8") for r in rows)
        prefix = "\n".join(head) + "\n\n\n" if head else ""
        return prefix + body + "\n", prefix.count("\n") + def_row + 1

    def _unparsed_text(self, head: list[str]) -> tuple[str, int]:
        prefix = "\n".join(head) + "\n\n\n" if head else ""
        text = ast.unparse(self.node)
        def_line = next(k for k, line in enumerate(text.splitlines()) if line.lstrip().startswith("def "))
        return prefix + text + "\n", prefix.count("\n") + def_line + 1


def _literal(t: str, v: object) -> str:
    return repr(v) if t != "bool" else str(bool(v))


# ---- scopes ---------------------------------------------------------------------------------------

def _scope_bindings(fn: ast.FunctionDef) -> dict[str, list[ast.AST]]:
    """name -> the nodes binding it in `fn`'s own scope: parameters, assignment targets, imports, defs..."""
    found: dict[str, list[ast.AST]] = {}
    a = fn.args
    for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]:
        if arg is not None:
            found.setdefault(arg.arg, []).append(arg)
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.setdefault(node.name, []).append(node)
            continue  # its body is its own scope
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            found.setdefault(node.id, []).append(node)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                found.setdefault((alias.asname or alias.name).split(".")[0], []).append(node)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found.setdefault(node.name, []).append(node)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                found.setdefault(name, []).append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def free_names(fn: ast.FunctionDef) -> list[str]:
    """Names the kernel reads from outside itself (body, parameter types, decorators), in first-use order."""
    a = fn.args
    own = {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if x is not None}
    own |= {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    seen: dict[str, None] = {}
    parts = [*fn.decorator_list, *(x.annotation for x in a.args if x.annotation), *fn.body]
    for part in parts:
        for n in ast.walk(part):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in own and n.id != "wp":
                seen.setdefault(n.id, None)
    return list(seen)


class CaptureError(Exception):
    """A captured name that cannot be resolved without running the code; the message is the reason."""


@dataclass
class _Closure:
    """Resolves the names a nested kernel captures from its enclosing functions (innermost last)."""

    chain: list[ast.FunctionDef]
    kernel_line: int  # the kernel's first line (decorators included): captured values must be bound before it
    module_constants: dict[str, tuple[str, object]]
    module_aliases: dict[str, str]
    declared: dict[str, object] = field(default_factory=dict)  # the user's values (--inputs `captures`)
    constants: dict[str, tuple[str, object]] = field(default_factory=dict)
    type_aliases: dict[str, str] = field(default_factory=dict)
    _bindings: dict[int, dict[str, list[ast.AST]]] = field(default_factory=dict)

    def bindings(self, fn: ast.FunctionDef) -> dict[str, list[ast.AST]]:
        if id(fn) not in self._bindings:
            self._bindings[id(fn)] = _scope_bindings(fn)
        return self._bindings[id(fn)]

    def resolve(self, name: str, depth: int | None = None, before: int | None = None) -> None:
        """Record `name`'s captured value, if an enclosing function binds it: the file's static value, else
        the user's declared one; CaptureError if neither."""
        depth = len(self.chain) if depth is None else depth
        before = self.kernel_line if before is None else before
        for level in range(depth - 1, -1, -1):
            fn = self.chain[level]
            nodes = self.bindings(fn).get(name)
            if not nodes:
                continue
            if name in self.constants or name in self.type_aliases:
                return
            try:
                self._resolve_static(name, nodes, fn, level, before)
            except CaptureError:
                if name not in self.declared:
                    raise
                self.bind_declared(name)
            return

    def bind_declared(self, name: str) -> None:
        from cuda_production.translator import _constant_value

        value = self.declared[name]
        if isinstance(value, str):
            self.type_aliases[name] = value
            return
        folded = _constant_value(ast.Constant(value), {})
        if folded is None:
            raise CaptureError(f"'{name}', declared as {value!r}, outside int32 or not finite")
        self.constants[name] = folded

    def _resolve_static(self, name: str, nodes: list[ast.AST], fn: ast.FunctionDef, level: int, before: int) -> None:
        if any(isinstance(n, ast.arg) for n in nodes):
            raise CaptureError(f"'{name}', a parameter of '{fn.name}' (its value is known only when the code runs)")
        if any(isinstance(n, (ast.Global, ast.Nonlocal)) for n in nodes):
            raise CaptureError(f"'{name}', declared global or nonlocal in '{fn.name}'")
        if len(nodes) != 1:
            raise CaptureError(f"'{name}', assigned {len(nodes)} times in '{fn.name}'")
        if isinstance(nodes[0], (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            raise CaptureError(f"'{name}', a function or class defined inside '{fn.name}' (helpers and structs "
                               f"are translated from module level)")
        stmt = next((s for s in fn.body if isinstance(s, (ast.Assign, ast.AnnAssign))
                     and (s.targets if isinstance(s, ast.Assign) else [s.target]) == [nodes[0]]), None)
        if stmt is None or stmt.value is None:
            raise CaptureError(f"'{name}', which '{fn.name}' binds other than by one `{name} = value` statement "
                               f"in its body")
        if stmt.lineno >= before:
            raise CaptureError(f"'{name}', assigned in '{fn.name}' only after the kernel")
        nonlocal_writers = [n for n in ast.walk(fn) if isinstance(n, ast.Nonlocal) and name in n.names]
        if nonlocal_writers:
            raise CaptureError(f"'{name}', reassigned through `nonlocal` inside '{fn.name}'")
        self.bind(name, stmt.value, level, stmt.lineno, fn)

    def bind(self, name: str, value: ast.expr, level: int, line: int, fn: ast.FunctionDef) -> None:
        from cuda_production.translator import _constant_value  # the module-constant rules

        alias = _type_named(value, {**self.module_aliases, **self.type_aliases})
        if alias is not None:
            self.type_aliases[name] = alias
            return
        for n in ast.walk(value):  # a value built from other captured names: resolve those first
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                try:
                    self.resolve(n.id, level + 1, line)
                except CaptureError as exc:
                    raise CaptureError(f"'{name}' = '{_short(value)}' from '{fn.name}', which reads {exc}") from None
        known = {**self.module_constants, **{k: ("type", v) for k, v in self.module_aliases.items()},
                 **self.constants, **{k: ("type", v) for k, v in self.type_aliases.items()}}
        folded = _constant_value(value, known)
        if folded is None:
            raise CaptureError(f"'{name}' = '{_short(value)}' from '{fn.name}', which is not a literal, a constant "
                               f"or a type")
        self.constants[name] = folded


def _type_named(node: ast.AST, aliases: dict[str, str]) -> str | None:
    """The translator's type a type expression names (`wp.float32`, `float`, an alias), or None."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "wp" \
            and node.attr in TYPE_ALIASES:
        return TYPE_ALIASES[node.attr]
    if isinstance(node, ast.Name) and node.id in ("float", "int", "bool"):
        return TYPE_ALIASES[node.id]
    if isinstance(node, ast.Name) and node.id in aliases:
        return aliases[node.id]
    return None


def _short(node: ast.AST, limit: int = 40) -> str:
    text = ast.unparse(node).replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---- generic kernels ------------------------------------------------------------------------------

def _is_generic(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id in GENERIC_TYPES) or \
        (isinstance(node, ast.Attribute) and node.attr in GENERIC_TYPES)


def is_generic_annotation(annotation: ast.AST) -> bool:
    """Whether a type annotation is, or holds, a generic placeholder (`Any`, `wp.array(dtype=Float)`)."""
    return any(_is_generic(n) for n in ast.walk(annotation))


def generic_params(fn: ast.FunctionDef) -> list[str]:
    """Parameters whose type is (or holds) a generic placeholder: Any, Scalar, Float, Int."""
    return [a.arg for a in fn.args.args if a.annotation is not None and any(_is_generic(n) for n in ast.walk(a.annotation))]


def is_overload_statement(stmt: ast.stmt) -> bool:
    """A module-level `wp.overload(...)` call or `@wp.overload` stub."""
    from cuda_production.translator import _is_wp_attr

    if isinstance(stmt, ast.FunctionDef):
        return any(_is_wp_attr(d, "overload") for d in stmt.decorator_list)
    call = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
    return isinstance(call, ast.Call) and _is_wp_attr(call.func, "overload")


def _overloads(tree: ast.Module) -> dict[str, list[tuple[ast.AST, dict[str, ast.expr] | list[ast.expr]]]]:
    """Module-level `wp.overload(k, {...})` / `wp.overload(k, [...])` calls and `@wp.overload` stubs, by kernel."""
    from cuda_production.translator import _is_wp_attr

    found: dict[str, list] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef) and any(_is_wp_attr(d, "overload") for d in stmt.decorator_list):
            found.setdefault(stmt.name, []).append((stmt, {a.arg: a.annotation for a in stmt.args.args if a.annotation}))
            continue
        call = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
        if not (isinstance(call, ast.Call) and _is_wp_attr(call.func, "overload") and len(call.args) == 2
                and isinstance(call.args[0], ast.Name)):
            continue
        spec = call.args[1]
        if isinstance(spec, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in spec.keys):
            found.setdefault(call.args[0].id, []).append((stmt, {k.value: v for k, v in zip(spec.keys, spec.values)}))
        elif isinstance(spec, (ast.List, ast.Tuple)):
            found.setdefault(call.args[0].id, []).append((stmt, list(spec.elts)))
    return found


def concrete_annotation(annotation: ast.expr, type_name: str) -> ast.expr:
    """`annotation` with each generic placeholder replaced by `wp.<type_name>` (an array's element type)."""
    class Concrete(ast.NodeTransformer):
        def visit_Name(self, node):
            return ast.copy_location(ast.Attribute(ast.Name("wp", ast.Load()), type_name, ast.Load()), node) \
                if _is_generic(node) else node

        def visit_Attribute(self, node):
            if _is_generic(node):
                return ast.copy_location(ast.Attribute(ast.Name("wp", ast.Load()), type_name, ast.Load()), node)
            return self.generic_visit(node)

    return ast.fix_missing_locations(Concrete().visit(copy.deepcopy(annotation)))


def _type_suffix(annotations: list[ast.expr]) -> str:
    leaves: dict[str, None] = {}
    for a in annotations:
        for n in ast.walk(a):
            leaf = n.id if isinstance(n, ast.Name) else (n.attr if isinstance(n, ast.Attribute) else None)
            if leaf and leaf not in _NOT_TYPE_LEAVES:
                leaves.setdefault(re.sub(r"\W", "", leaf), None)
    return "_".join(leaves)


# ---- expansion ------------------------------------------------------------------------------------

@dataclass
class Expansion:
    instances: dict[str, KernelInstance] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)  # name -> message (without the location)
    refused_at: dict[str, ast.AST] = field(default_factory=dict)  # name -> where
    def_lines: dict[str, int] = field(default_factory=dict)  # refused name -> line of its def
    replaced: set[str] = field(default_factory=set)  # module-level generic kernels replaced by their instances


def nested_kernel_defs(tree: ast.Module, is_kernel) -> list[tuple[ast.FunctionDef, list[ast.FunctionDef]]]:
    """Every kernel def not at the module's top level, with its enclosing functions (outermost first)."""
    found = []
    stack: list[tuple[ast.AST, list[ast.FunctionDef], bool]] = [(s, [], True) for s in reversed(tree.body)]
    while stack:
        node, chain, top = stack.pop()
        if isinstance(node, ast.FunctionDef) and is_kernel(node):
            if not top:
                found.append((node, chain))
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner = chain + [node] if isinstance(node, ast.FunctionDef) else chain
            stack.extend((c, inner, False) for c in reversed(node.body))
        elif isinstance(node, ast.ClassDef):
            stack.extend((c, chain, False) for c in reversed(node.body))  # a class body is no closure scope
        elif isinstance(node, ast.stmt):
            for attr in ("body", "orelse", "finalbody", "handlers", "cases"):
                for c in reversed(getattr(node, attr, []) or []):
                    stack.append((c, chain, False))
        elif isinstance(node, (ast.ExceptHandler, getattr(ast, "match_case", ast.ExceptHandler))):
            stack.extend((c, chain, False) for c in reversed(node.body))
    return sorted(found, key=lambda item: item[0].lineno)


def expand(tree: ast.Module, top_kernels: dict[str, ast.FunctionDef], module_constants: dict[str, tuple[str, object]],
           module_aliases: dict[str, str], is_kernel, declared_types: dict[str, dict[str, str]] | None = None,
           module_names: set[str] = frozenset(), declared_captures: dict[str, dict[str, object]] | None = None) -> Expansion:
    """Nested kernels resolved, generic kernels instantiated; each with its unique name, or refused."""
    declared_types = declared_types or {}
    result = Expansion()
    nested = nested_kernel_defs(tree, is_kernel)
    every_name = [*top_kernels, *(fn.name for fn, _ in nested)]
    taken = set(top_kernels) | set(module_names)

    def unique(candidates: list[str]) -> str:
        for name in candidates:
            if name not in taken:
                taken.add(name)
                return name
        base, k = candidates[-1], 2
        while f"{base}_{k}" in taken:
            k += 1
        taken.add(f"{base}_{k}")
        return f"{base}_{k}"

    bases: list[tuple[ast.FunctionDef, str, _Closure | None, str | None]] = []  # (def, name, closure, refusal)
    for fn, chain in nested:
        other = f"{chain[-1].name}_{fn.name}" if chain else f"{fn.name}_line{fn.lineno}"
        name = unique(([fn.name] if every_name.count(fn.name) == 1 else []) + [other])
        declared = (declared_captures or {}).get(name) or (declared_captures or {}).get(fn.name) or {}
        closure = _Closure(chain, min([d.lineno for d in fn.decorator_list] + [fn.lineno]), module_constants,
                           module_aliases, dict(declared))
        refusal = None
        try:
            for free in free_names(fn):
                closure.resolve(free)
        except CaptureError as exc:
            where = f"inside '{chain[-1].name}'" if chain else "inside a block"
            refusal = f"kernel '{fn.name}' ({where}) captures {exc}; only locals assigned a literal, a constant " \
                      f"or a type once before the kernel, or declared with `captures` for '{name}' in --inputs, " \
                      f"are translated"
        bases.append((fn, name, closure, refusal))
    last_def = {fn.name: fn for fn in tree.body if isinstance(fn, ast.FunctionDef) and is_kernel(fn)}
    for fn in tree.body:  # a kernel defined twice at module level: the later def replaces the earlier, as in Python
        if isinstance(fn, ast.FunctionDef) and is_kernel(fn) and last_def[fn.name] is not fn:
            key = f"{fn.name}@{fn.lineno}"
            result.refused[key], result.refused_at[key], result.def_lines[key] = (
                f"kernel '{fn.name}' is defined again at line {last_def[fn.name].lineno}, which replaces this "
                f"definition (as in Python); only the later one is translated"), fn, fn.lineno
    overloads = _overloads(tree)
    for fn in top_kernels.values():
        if generic_params(fn):
            bases.append((fn, fn.name, None, None))
            result.replaced.add(fn.name)

    for fn, name, closure, refusal in sorted(bases, key=lambda b: b[0].lineno):
        if refusal is not None:
            result.refused[name], result.refused_at[name], result.def_lines[name] = refusal, fn, fn.lineno
            continue
        generic = generic_params(fn)
        if not generic:
            result.instances[name] = _instance(fn, name, closure, {}, f"defined inside '{closure.chain[-1].name}'"
                                               if closure and closure.chain else "defined inside a block")
            continue
        specs = overloads.get(fn.name, []) if closure is None else []
        variants: list[tuple[dict[str, ast.expr], str]] = []
        problem = None
        for where, spec in specs:
            params = [a.arg for a in fn.args.args]
            if isinstance(spec, list):
                if len(spec) != len(params):
                    problem = (f"wp.overload of '{fn.name}' at line {where.lineno} gives {len(spec)} types for "
                               f"{len(params)} parameters")
                    break
                spec = dict(zip(params, spec))
            unknown = sorted(set(spec) - set(params))
            if unknown:
                problem = f"wp.overload of '{fn.name}' at line {where.lineno} names no parameter '{unknown[0]}'"
                break
            left = [p for p in generic if p not in spec or any(_is_generic(n) for n in ast.walk(spec[p]))]
            if left:
                problem = f"wp.overload of '{fn.name}' at line {where.lineno} leaves parameter '{left[0]}' generic"
                break
            variants.append(({p: a for p, a in spec.items() if p in params}, f"wp.overload at line {where.lineno}"))
        if problem is None and not variants:
            types = declared_types.get(name) or declared_types.get(fn.name) or {}
            missing = [p for p in generic if p not in types]
            unknown_types = [(p, t) for p, t in types.items() if t not in TYPE_ALIASES]
            if missing:
                problem = (f"parameter '{missing[0]}' of kernel '{fn.name}' has a generic type "
                           f"'{_short(next(a.annotation for a in fn.args.args if a.arg == missing[0]))}': declare its "
                           f"type with wp.overload in the file, or with `types` for '{name}' in --inputs")
            elif unknown_types:
                p, t = unknown_types[0]
                problem = f"declared type '{t}' of parameter '{p}' of '{fn.name}' is not a type the translator knows"
            else:
                concrete = {a.arg: concrete_annotation(a.annotation, types[a.arg]) for a in fn.args.args if a.arg in generic}
                variants.append((concrete, "types declared in --inputs"))
        if problem is not None:
            missing_arg = next((a for a in fn.args.args if f"parameter '{a.arg}' of" in problem), None)
            result.refused[name], result.refused_at[name] = problem, (missing_arg.annotation if missing_arg else fn)
            result.def_lines[name] = fn.lineno
            continue
        if len(variants) == 1:
            names = [name]
        else:
            names = [unique([f"{name}_{_type_suffix(list(v.values())) or 'overload'}"]) for v, _ in variants]
        for inst_name, (annotations, origin) in zip(names, variants):
            result.instances[inst_name] = _instance(fn, inst_name, closure, annotations, origin)
    return result


def _instance(fn: ast.FunctionDef, name: str, closure: _Closure | None, annotations: dict[str, ast.expr],
              origin: str) -> KernelInstance:
    node = copy.deepcopy(fn)
    node.name = name
    for arg in node.args.args:
        if arg.arg in annotations:
            arg.annotation = copy.deepcopy(annotations[arg.arg])
    used = set(free_names(fn))
    constants = {n: v for n, v in closure.constants.items() if n in used} if closure else {}
    aliases = {n: v for n, v in closure.type_aliases.items() if n in used} if closure else {}
    return KernelInstance(name, node, fn, origin, constants, aliases, dict(annotations))
