"""Inputs for a user's kernel: declared by the user, or inferred from how the kernel uses them.

A declaration gives, per kernel, the launch dimensions (`dim`) and, per parameter, any of the
fields of `synthesis.spec.ArgSpec` (role, shape, low, high, grid_bits, value, bound). It comes from
`--inputs FILE` (JSON or TOML, one entry per kernel) or from `# translate:` comment lines directly
above the kernel's decorator:

    # translate: dim=256
    # translate: idx role=index high=99
    # translate: points shape=100 low=-2 high=2
    @wp.kernel
    def gather(idx: wp.array(dtype=int), points: wp.array(dtype=wp.vec3), ...):

The same declaration in a file (TOML; JSON has the same structure):

    [gather]
    dim = [256]
    args.idx = {role = "index", high = 99}
    args.points = {shape = [100], low = -2, high = 2}

A hash grid, mesh or BVH parameter (a `wp.uint64` id) gets a stand-in the .cu builds (`structure_input`):
declared `points`, `shape` and `value`, or STRUCTURE_DEFAULTS and the points array its queries read.

Whatever is not declared is inferred (`infer_inputs`): arrays indexed by the thread indices are
shaped like the launch along those dimensions; an int array whose values index another array
(`b[idx[i]]`, also through a local or a loop bound) is an index array with values in
[0, extent - 1] of the array it indexes.
"""
from __future__ import annotations

import ast
import json
import math
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

from cuda_production.cuda_types import TYPE_ALIASES
from cuda_production.tiles import LaunchCall
from cuda_production.translator import ATOMICS, SWAPS, TranslatedKernel
from synthesis.dtypes import dtype as lookup_dtype
from synthesis.spec import ArgSpec

DEFAULT_LAUNCH = {1: (1024,), 2: (64, 64), 3: (16, 16, 16), 4: (4, 8, 16, 16)}
DEFAULT_TILED_LAUNCH = {1: (8,), 2: (4, 4), 3: (2, 2, 2)}  # wp.launch_tiled: blocks, each block_dim threads
SIDE_OF_OTHER_ARRAYS = 16  # extent of each dimension of an array whose shape says nothing
MAX_ELEMENTS = 1 << 26  # per array and per launch: the hashed inputs count elements in 32 bits
MAX_INFERRED_LAUNCH = 1 << 22  # a launch taken from a kernel's guards, larger ones keep the default
# a kernel using tiles proves itself on the host with every block's threads as fibers switching at each
# barrier: launches taken from the file above this size keep the default (declare dim to choose)
MAX_TILE_LAUNCH = 1 << 16
ARG_FIELDS = {"role": str, "shape": list, "low": (int, float), "high": (int, float), "grid_bits": int,
              "value": (int, float, list), "bound": (int, float), "points": str}
ARRAY_FIELDS = {"role", "shape", "low", "high", "grid_bits", "bound"}  # what an array parameter's declaration may say
# What stands for a hash grid, mesh or BVH that the user's code builds (the kernel cannot tell), unless
# declared: `shape` and `value` as in synthesis/spec.py's ArgSpec, over the default inputs in [-1, 1].
# A hash grid of 32^3 cells 0.25 wide over its points array; a rock mesh (synthesis/mesh_geometry.py)
# of 16 cells 0.125 wide, spanning [-1, 1]; a BVH over boxes of half width 0.0625 around its points.
STRUCTURE_DEFAULTS = {"hash_grid": ((32, 32, 32), 0.25), "mesh": ((16,), 0.125), "bvh": ((), 0.0625)}
STRUCTURE_NAMES = {"hash_grid": "a hash grid", "mesh": "a mesh", "bvh": "a BVH"}
# the iterators whose second argument receives a point's or an item's index
INDEX_ITERATORS = ("hash_grid_query_next", "bvh_query_next")
QUERY_CALLS = ("hash_grid_query", "bvh_query_aabb", "bvh_query_sphere", "bvh_query_ray")  # (id, centre, ...)
COMMENT_PREFIX = "# translate:"


class InputsError(Exception):
    """A declaration that cannot be used; the message is one line naming where it comes from."""


@dataclass
class KernelDeclaration:
    """What the user declared for one kernel; `origin` names where, for messages."""

    origin: str
    dim: tuple[int, ...] | None = None
    args: dict[str, dict] = field(default_factory=dict)
    types: dict[str, str] = field(default_factory=dict)  # generic parameter -> type (an array's: its element type)
    captures: dict[str, object] = field(default_factory=dict)  # captured local -> number or type (nested kernels)
    block_dim: int | None = None  # threads per block, for a kernel using tiles


# ---- reading declarations ----------------------------------------------------------------------

def load_inputs_file(path: Path) -> dict[str, KernelDeclaration]:
    """`--inputs FILE`: {kernel: {"dim": [...], "args": {param: {field: value}}}} as JSON or TOML."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise InputsError(f"{path}: error: cannot read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
        data = tomllib.loads(text) if Path(path).suffix.lower() == ".toml" else json.loads(text)
    except (UnicodeDecodeError, ValueError) as exc:  # JSONDecodeError and TOMLDecodeError are ValueErrors
        kind = "TOML" if Path(path).suffix.lower() == ".toml" else "JSON"
        raise InputsError(f"{path}: error: not valid {kind}: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict):
        raise InputsError(f"{path}: error: expected a table of kernels at the top level")
    declarations = {}
    for kernel, entry in data.items():
        origin = f"{path}: kernel '{kernel}'"
        if not isinstance(entry, dict):
            raise InputsError(f"{origin}: error: expected a table with 'dim' and/or 'args'")
        unknown = set(entry) - {"dim", "args", "types", "captures", "block_dim"}
        if unknown:
            raise InputsError(f"{origin}: error: unknown key '{sorted(unknown)[0]}' (expected 'dim', 'args', 'types', "
                              f"'captures', 'block_dim')")
        args = entry.get("args", {})
        if not isinstance(args, dict) or not all(isinstance(v, dict) for v in args.values()):
            raise InputsError(f"{origin}: error: 'args' must map parameter names to tables of fields")
        declarations[kernel] = KernelDeclaration(origin, _dims(entry["dim"], origin) if "dim" in entry else None,
                                                 {name: _fields(f, f"{origin}, parameter '{name}'") for name, f in args.items()},
                                                 _types(entry.get("types", {}), origin),
                                                 _captures(entry.get("captures", {}), origin),
                                                 _block_dim(entry["block_dim"], origin) if "block_dim" in entry else None)
    return declarations


def comment_declaration(lines: list[str], fn: ast.FunctionDef, filename: str) -> KernelDeclaration | None:
    """The `# translate:` lines directly above the kernel's first decorator (None if there are none)."""
    first = min([d.lineno for d in fn.decorator_list] + [fn.lineno])
    found: list[tuple[int, str]] = []
    row = first - 2  # 0-based index of the line above
    while row >= 0 and lines[row].strip().startswith(COMMENT_PREFIX):
        found.append((row + 1, lines[row].strip()[len(COMMENT_PREFIX):].strip()))
        row -= 1
    if not found:
        return None
    decl = KernelDeclaration(f"{filename}:{found[-1][0]}: inputs of '{fn.name}'")
    for lineno, text in reversed(found):
        origin = f"{filename}:{lineno}"
        tokens = text.split()
        if not tokens:
            continue
        if "=" in tokens[0]:  # kernel-level: dim=...
            for token in tokens:
                key, _, value = token.partition("=")
                if key == "block_dim":
                    decl.block_dim = _block_dim(_number(value, origin), origin)
                    continue
                if key != "dim":
                    raise InputsError(f"{origin}: error: unknown kernel setting '{key}' (expected dim=N[,N[,N]], "
                                      f"block_dim=N, or a parameter name followed by field=value pairs)")
                decl.dim = _dims([_number(v, origin) for v in value.split(",")], origin)
            continue
        name, fields = tokens[0], {}
        for token in tokens[1:]:
            key, eq, value = token.partition("=")
            if not eq:
                raise InputsError(f"{origin}: error: expected field=value, found '{token}'")
            if key in ("role", "points"):
                fields[key] = value
            elif key == "shape":
                fields[key] = [_number(v, origin) for v in value.split(",")]
            elif key == "value" and "," in value:
                fields[key] = [_number(v, origin) for v in value.split(",")]
            else:
                fields[key] = _number(value, origin)
        decl.args.setdefault(name, {}).update(_fields(fields, f"{origin}: parameter '{name}'"))
    return decl


def _types(types, origin: str) -> dict[str, str]:
    """`types = {param = "float32"}`: the type of each generic parameter (for an array, its element type)."""
    if not isinstance(types, dict):
        raise InputsError(f"{origin}: error: 'types' must map parameter names to type names")
    for name, type_name in types.items():
        if not isinstance(type_name, str) or type_name.removeprefix("wp.") not in TYPE_ALIASES:
            raise InputsError(f"{origin}: error: type of '{name}' must be one of {', '.join(sorted(TYPE_ALIASES))}, "
                              f"not {type_name!r}")
    return {name: TYPE_ALIASES[t.removeprefix("wp.")] for name, t in types.items()}


def _captures(captures, origin: str) -> dict[str, object]:
    """`captures = {m = 32, dtype = "float32"}`: values of the locals a nested kernel captures (numbers or types)."""
    if not isinstance(captures, dict):
        raise InputsError(f"{origin}: error: 'captures' must map captured names to numbers or type names")
    found = {}
    for name, value in captures.items():
        if isinstance(value, str) and value.removeprefix("wp.") in TYPE_ALIASES:
            found[name] = TYPE_ALIASES[value.removeprefix("wp.")]  # a type: kept as its name
        elif isinstance(value, (bool, int, float)) and not isinstance(value, str):
            found[name] = value
        else:
            raise InputsError(f"{origin}: error: captured '{name}' must be a number, true/false or a type name, "
                              f"not {value!r}")
    return found


def _number(text: str, origin: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise InputsError(f"{origin}: error: '{text}' is not a number") from None


def _dims(value, origin: str) -> tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool):
        value = [value]
    if (not isinstance(value, list) or not 1 <= len(value) <= 4
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)):
        raise InputsError(f"{origin}: error: dim must be 1 to 4 positive integers (Warp launches up to 4-D)")
    total = 1
    for v in value:
        total *= v
    if total > MAX_ELEMENTS:
        raise InputsError(f"{origin}: error: launch of {total} threads is over the limit of {MAX_ELEMENTS}")
    return tuple(value)


def _block_dim(value, origin: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 1024:
        raise InputsError(f"{origin}: error: block_dim must be an integer from 1 to 1024")
    return value


def _fields(fields: dict, origin: str) -> dict:
    out = {}
    for key, value in fields.items():
        if key not in ARG_FIELDS:
            raise InputsError(f"{origin}: error: unknown field '{key}' (expected one of {', '.join(ARG_FIELDS)})")
        if isinstance(value, bool) or not isinstance(value, ARG_FIELDS[key]):
            raise InputsError(f"{origin}: error: field '{key}' has the wrong type ({type(value).__name__})")
        if key == "shape":
            if not value or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value):
                raise InputsError(f"{origin}: error: shape must be positive integers")
            value = tuple(value)
        if key == "value" and isinstance(value, list):
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
                raise InputsError(f"{origin}: error: value must be numbers")
            value = tuple(float(v) for v in value)
        out[key] = value
    return out


# ---- inferring what is not declared -------------------------------------------------------------

@dataclass
class Usage:
    """How a kernel body indexes its arrays."""

    tid_names: tuple[str, ...] = ()
    # array -> dimension -> (axis, stride, offset) of each index affine in one thread index
    # (a[i] is (0, 1, 0), a[3 * i + 2] is (0, 3, 2), a[N - 1] is (None, 0, N - 1))
    affine: dict[str, dict[int, list[tuple[int | None, int, int]]]] = field(default_factory=dict)
    # array -> dimensions indexed by anything other than a bare thread index
    other_dims: dict[str, set[int]] = field(default_factory=dict)
    # int array -> (array, dimension) pairs its values index
    indexes_into: dict[str, set[tuple[str, int]]] = field(default_factory=dict)
    # thread-index axis -> the extent its guards name (`if i >= N: return`, `i == N - 1`)
    guarded_extent: dict[int, int] = field(default_factory=dict)
    # (array, dimension) -> the largest tile extent read or written along it (wp.tile_load/store/atomic_add)
    tile_extent: dict[tuple[str, int], int] = field(default_factory=dict)
    # int by-value parameters read only as the bound of the outermost thread index (`if i >= n: return`,
    # `if i < n:`): the count of a padded launch's elements
    launch_counts: set[str] = field(default_factory=set)


def _constant_int(node: ast.AST, constants: dict[str, int]) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    return None


def _guard_extent(compare: ast.Compare, tid_names: tuple[str, ...], constants: dict[str, int]) -> tuple[int, int] | None:
    """(axis, extent) when `compare` is a thread index tested against a named bound: i >= N, i > N - 1,
    i == N - 1 (N a module-level int constant: a kernel written for a launch N wide)."""
    if len(compare.ops) != 1 or not isinstance(compare.left, ast.Name) or compare.left.id not in tid_names:
        return None
    right, op = compare.comparators[0], compare.ops[0]
    minus_one = (isinstance(right, ast.BinOp) and isinstance(right.op, ast.Sub)
                 and isinstance(right.right, ast.Constant) and right.right.value == 1)
    bound = right.left if minus_one else right
    if not isinstance(bound, ast.Name) or bound.id not in constants:
        return None
    n = constants[bound.id]
    if (isinstance(op, ast.GtE) and not minus_one) or (isinstance(op, (ast.Gt, ast.Eq)) and minus_one):
        return (tid_names.index(compare.left.id), n) if 0 < n else None
    return None


def _launch_counts(fn: ast.FunctionDef, kernel: TranslatedKernel, tid_names: tuple[str, ...]) -> set[str]:
    """The int by-value parameters whose every read compares the outermost thread index with them
    (`i >= n`, `i < n`, `n <= i`, `n > i`): each counts the elements of a padded launch, so the bench
    grows it with the launch (ArgSpec.launch_bound)."""
    if not tid_names:
        return set()
    ints = {p.name for p in kernel.params if p.kind == "scalar" and lookup_dtype(p.dtype).is_int}
    bound_reads: dict[str, int] = {}
    for node in ast.walk(fn):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            continue
        left, right, op = node.left, node.comparators[0], node.ops[0]
        for index, bound, ops in ((left, right, (ast.GtE, ast.Lt)), (right, left, (ast.LtE, ast.Gt))):
            if (isinstance(index, ast.Name) and index.id == tid_names[0] and isinstance(bound, ast.Name)
                    and bound.id in ints and isinstance(op, ops)):
                bound_reads[bound.id] = bound_reads.get(bound.id, 0) + 1
    reads: dict[str, int] = {}
    assigned: set[str] = set()  # a name the kernel assigns is a local there, not (only) the count
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id in bound_reads:
            if isinstance(node.ctx, ast.Load):
                reads[node.id] = reads.get(node.id, 0) + 1
            else:
                assigned.add(node.id)
    return {name for name, count in bound_reads.items() if reads.get(name) == count and name not in assigned}


def _affine(node: ast.AST, tid_names: tuple[str, ...], constants: dict[str, int]) -> tuple[int | None, int, int] | None:
    """`node` as stride * tid[axis] + offset with integer stride and offset, or None."""
    if isinstance(node, ast.Name) and node.id in tid_names:
        return tid_names.index(node.id), 1, 0
    c = _constant_int(node, constants)
    if c is not None:
        return None, 0, c
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        a, b = _affine(node.left, tid_names, constants), _affine(node.right, tid_names, constants)
        if a is None or b is None or (a[0] is not None and b[0] is not None):
            return None
        axis = a[0] if a[0] is not None else b[0]
        if isinstance(node.op, ast.Add):
            return axis, a[1] + b[1], a[2] + b[2]
        if isinstance(node.op, ast.Sub):
            return axis, a[1] - b[1], a[2] - b[2]
        if a[0] is None:  # constant * affine
            return axis, a[2] * b[1], a[2] * b[2]
        return axis, a[1] * b[2], a[2] * b[2]
    return None


def _periodic_helper_bound(call: ast.Call, funcs: dict[str, ast.FunctionDef], constants: dict[str, int]) -> int | None:
    """`cyclic_index(i - 1, N)`-style helpers: a @wp.func whose body takes `% N` of a value (N a constant,
    or a parameter given a constant) returns an index into an N-periodic grid: at most N - 1."""
    fn = funcs.get(call.func.id) if isinstance(call.func, ast.Name) else None
    if fn is None:
        return None
    bound_args = {a.arg: _affine(v, (), constants) for a, v in zip(fn.args.args, call.args)}
    moduli = []
    for node in ast.walk(fn):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            c = _affine(node.right, (), constants)
            if c is None and isinstance(node.right, ast.Name):
                c = bound_args.get(node.right.id)
            if c is not None and c[2] > 0:
                moduli.append(c[2])
    return max(moduli) - 1 if moduli else None


def _upper_bound(node: ast.AST, constants: dict[str, int], assigned: dict[str, list[ast.AST]], seen=(),
                 funcs: dict[str, ast.FunctionDef] | None = None) -> int | None:
    """A largest value the index `node` can take, when its form says so: `x % N` (N - 1),
    `wp.clamp(x, lo, hi)` (hi), `wp.min(x, hi)`, a periodic-index helper, a constant, or a local only
    ever assigned such values."""
    if isinstance(node, ast.Call) and funcs:
        periodic = _periodic_helper_bound(node, funcs, constants)
        if periodic is not None:
            return periodic
    form = _affine(node, (), constants)
    if form is not None:
        return form[2]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        c = _affine(node.right, (), constants)
        return c[2] - 1 if c is not None and c[2] > 0 else None
    if isinstance(node, ast.Call) and _is_wp(node.func, "clamp") and len(node.args) == 3:
        return _upper_bound(node.args[2], constants, assigned, seen, funcs)
    if isinstance(node, ast.Call) and _is_wp(node.func, "min") and len(node.args) == 2:
        bounds = [_upper_bound(a, constants, assigned, seen, funcs) for a in node.args]
        known = [b for b in bounds if b is not None]
        return min(known) if known else None
    if isinstance(node, ast.Name) and node.id in assigned and node.id not in seen:
        bounds = [_upper_bound(v, constants, assigned, (*seen, node.id), funcs) for v in assigned[node.id]]
        return max(bounds) if bounds and None not in bounds else None
    return None


def _assignments(fn: ast.FunctionDef) -> dict[str, list[ast.AST]]:
    found: dict[str, list[ast.AST]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            found.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.For)) or (isinstance(node, ast.Assign) and len(node.targets) != 1):
            for t in ast.walk(node.target if not isinstance(node, ast.Assign) else node):
                if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store):
                    found.setdefault(t.id, []).append(ast.Name("unbounded", ast.Load()))  # not bounded
    return found


def _func_accesses(fn: ast.FunctionDef, funcs: dict[str, ast.FunctionDef], constants: dict[str, int],
                   depth: int = 0) -> dict[int, dict[int, list[int]]]:
    """For a @wp.func: parameter position -> dimension -> upper bounds of the indices it is accessed
    with (None entries dropped means: not bounded), including through the helpers it passes it to."""
    result: dict[int, dict[int, list[int]]] = {}
    params = [a.arg for a in fn.args.args]
    assigned = _assignments(fn)
    for node in ast.walk(fn):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in params:
            indices = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            for d, index in enumerate(indices):
                bound = _upper_bound(index, constants, assigned)
                result.setdefault(params.index(node.value.id), {}).setdefault(d, []).append(
                    -1 if bound is None else bound)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in funcs and depth < 8:
            inner = _func_accesses(funcs[node.func.id], funcs, constants, depth + 1)
            for k, arg in enumerate(node.args):
                if isinstance(arg, ast.Name) and arg.id in params and k in inner:
                    for d, bounds in inner[k].items():
                        result.setdefault(params.index(arg.id), {}).setdefault(d, []).extend(bounds)
    return result


def kernel_usage(fn: ast.FunctionDef, kernel: TranslatedKernel, constants: dict[str, int] | None = None,
                 funcs: dict[str, ast.FunctionDef] | None = None) -> Usage:
    arrays = {p.name: p for p in kernel.params if p.kind == "array"}
    int_arrays = {n for n, p in arrays.items() if p.dtype == "int32"}
    usage = Usage()
    for stmt in fn.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and _is_wp(stmt.value.func, "tid"):
            target = stmt.targets[0]
            elts = target.elts if isinstance(target, ast.Tuple) else [target]
            usage.tid_names = tuple(e.id for e in elts if isinstance(e, ast.Name))[: kernel.launch_ndim]
            break

    # Which int arrays' values flow into each local (assignments, loop variables), to a fixed point.
    derived: dict[str, set[str]] = {}

    def sources(node: ast.AST) -> set[str]:
        found: set[str] = set()
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id in int_arrays:
                found.add(n.value.id)
                continue  # its own index says nothing about its values
            if isinstance(n, ast.Name):
                found |= derived.get(n.id, set())
            stack.extend(ast.iter_child_nodes(n))
        return found

    flows: list[tuple[str, ast.AST]] = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for t in ast.walk(target):
                    if isinstance(t, ast.Name):
                        flows.append((t.id, node.value))
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name) and node.value is not None:
            flows.append((node.target.id, node.value))
        elif isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            flows.append((node.target.id, node.iter))
    changed = True
    while changed:
        changed = False
        for name, value in flows:
            new = sources(value) - derived.get(name, set())
            if new:
                derived.setdefault(name, set()).update(new)
                changed = True

    for node in ast.walk(fn):
        if isinstance(node, ast.Compare):
            guard = _guard_extent(node, usage.tid_names, constants or {})
            if guard:
                axis, n = guard
                usage.guarded_extent[axis] = max(n, usage.guarded_extent.get(axis, 0))
    usage.launch_counts = _launch_counts(fn, kernel, usage.tid_names)

    def record(arr: str, indices: list[ast.AST]) -> None:
        for d, index in enumerate(indices[: arrays[arr].ndim]):
            form = _affine(index, usage.tid_names, constants or {})
            if form is None:
                bound = _upper_bound(index, constants or {}, assigned, (), funcs)
                form = None if bound is None else (None, 0, bound)
            if form is not None:
                usage.affine.setdefault(arr, {}).setdefault(d, []).append(form)
            else:
                usage.other_dims.setdefault(arr, set()).add(d)
            for src in sources(index):
                usage.indexes_into.setdefault(src, set()).add((arr, d))

    assigned = _assignments(fn)
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (funcs or {}):
            # an array handed to a @wp.func: the bounds of the func's own indices into it
            inner = _func_accesses(funcs[node.func.id], funcs, constants or {})
            for k, arg in enumerate(node.args):
                if isinstance(arg, ast.Name) and arg.id in arrays and k in inner:
                    for d, bounds in inner[k].items():
                        if -1 in bounds:
                            usage.other_dims.setdefault(arg.id, set()).add(d)
                        else:
                            usage.affine.setdefault(arg.id, {}).setdefault(d, []).append((None, 0, max(bounds)))
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in arrays:
            record(node.value.id, node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice])
        elif (isinstance(node, ast.Call) and _is_wp(node.func, *ATOMICS, *SWAPS) and node.args
              and isinstance(node.args[0], ast.Name) and node.args[0].id in arrays):
            values = 2 if _is_wp(node.func, "atomic_cas") else 1  # (array, indices..., [compare,] value)
            record(node.args[0].id, list(node.args[1:-values]))
    for arr, offsets, shape in kernel.tile_accesses:
        # a tile of extent s at offset o needs o + s elements along its axis
        if arr not in arrays:
            continue
        for d, (offset, extent) in enumerate(zip(offsets, shape)):
            usage.tile_extent[(arr, d)] = max(extent, usage.tile_extent.get((arr, d), 0))
            form = _affine(offset, usage.tid_names, constants or {}) if offset is not None else (None, 0, 0)
            if form is None:
                usage.other_dims.setdefault(arr, set()).add(d)
            else:
                usage.affine.setdefault(arr, {}).setdefault(d, []).append((form[0], form[1], form[2] + extent - 1))
    return usage


def _is_wp(node: ast.AST, *names: str) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "wp" and node.attr in names


def infer_inputs(kernel: TranslatedKernel, fn: ast.FunctionDef, declared: KernelDeclaration | None = None,
                 constants: dict[str, int] | None = None,
                 funcs: dict[str, ast.FunctionDef] | None = None,
                 launched: tuple[int, ...] | None = None) -> tuple[tuple[int, ...], list[ArgSpec]]:
    """The launch and the arguments' ArgSpecs: declared fields first, inferred for the rest.
    `constants`: the file's module-level int constants (a guard `if i >= N: return` sets the launch).
    `launched`: the dimensions the file's own `wp.launch` calls give (`file_launches`), used when
    no dimensions are declared."""
    declared = declared or KernelDeclaration("no declaration")
    names = [p.name for p in kernel.params]
    for name in declared.args:
        if name not in names:
            raise InputsError(f"{declared.origin}: error: no parameter '{name}' in kernel '{kernel.name}'")
    usage = kernel_usage(fn, kernel, constants, funcs)
    launch = declared.dim
    if (launch is None and launched is not None and len(launched) == kernel.launch_ndim
            and math.prod(launched) <= (MAX_TILE_LAUNCH if kernel.block_dim else MAX_INFERRED_LAUNCH)):
        launch = launched
    if launch is None:
        defaults = DEFAULT_TILED_LAUNCH if kernel.tiled else DEFAULT_LAUNCH
        launch = tuple(usage.guarded_extent.get(axis, d) for axis, d in enumerate(defaults[kernel.launch_ndim]))
        total = 1
        for d in launch:
            total *= d
        if total > MAX_INFERRED_LAUNCH:
            launch = DEFAULT_LAUNCH[kernel.launch_ndim]
    if len(launch) != kernel.launch_ndim:
        raise InputsError(f"{declared.origin}: error: dim has {len(launch)} dimensions, kernel '{kernel.name}' "
                          f"launches over {kernel.launch_ndim}")
    size = 1
    for d in launch:
        size *= d
    if kernel.block_dim and not kernel.tiled and size % kernel.block_dim:
        raise InputsError(f"{declared.origin}: error: kernel '{kernel.name}' uses tiles: its launch of {size} threads "
                          f"must be a multiple of block_dim {kernel.block_dim} (declare dim or block_dim)")

    shapes: dict[str, tuple[int, ...]] = {}
    for p in kernel.params:
        if p.kind != "array":
            continue
        given = declared.args.get(p.name, {}).get("shape")
        if given is not None:
            if len(given) != p.ndim:
                raise InputsError(f"{declared.origin}: error: parameter '{p.name}' is a {p.ndim}-D array, "
                                  f"shape {list(given)} has {len(given)} dimensions")
            shapes[p.name] = tuple(given)
            continue
        shape = []
        for d in range(p.ndim):
            # Each index affine in a thread index needs stride * (extent - 1) + offset + 1 elements.
            needs = [stride * (launch[axis] - 1 if axis is not None else 0) + offset + 1
                     for axis, stride, offset in usage.affine.get(p.name, {}).get(d, []) if stride >= 0]
            if needs and d not in usage.other_dims.get(p.name, set()):
                extent = max(needs)
            elif (p.name, d) in usage.tile_extent:  # tiles at offsets the analysis cannot bound (a loop's)
                extent = usage.tile_extent[(p.name, d)] * max(launch)
            elif p.ndim == len(launch):
                extent = launch[d]
            elif p.ndim == 1:
                extent = size
            else:
                extent = SIDE_OF_OTHER_ARRAYS
            if d in usage.other_dims.get(p.name, set()):  # a loop or computed index: not below the default
                extent = max(extent, SIDE_OF_OTHER_ARRAYS)  # (a serial kernel launched once scans a table)
            shape.append(max([extent, *needs]) if max([extent, *needs]) <= MAX_ELEMENTS else extent)
        shapes[p.name] = tuple(shape)

    smallest = min(launch) if len(launch) > 1 else launch[0]
    args = []
    for p in kernel.params:
        fields = declared.args.get(p.name, {})
        where = f"{declared.origin}: parameter '{p.name}'"
        if p.kind in STRUCTURE_DEFAULTS:
            args.append(structure_input(p, fields, where, kernel, fn))
            continue
        if p.kind == "struct":  # members described like parameters of their own (declarations: not yet)
            if fields:
                raise InputsError(f"{where}: error: inputs of a struct parameter cannot be declared yet")
            _, members = infer_inputs(replace(kernel, params=list(p.fields)), fn,
                                      KernelDeclaration(declared.origin, launch), constants, funcs)
            args.append(ArgSpec(p.name, p.dtype, "struct", fields=tuple(members)))
            continue
        if p.kind != "array":
            arg = ArgSpec(p.name, p.dtype, "scalar", value=_default_value(p.dtype))
            if p.name in usage.launch_counts:  # every element of the launch is live, at bench size too
                arg = replace(arg, value=launch[0], launch_bound=True)
            if "value" in fields:
                value = _checked_value(p.dtype, fields["value"], where)
                arg = replace(arg, value=value, launch_bound=arg.launch_bound and 0 <= value <= launch[0])
            extra = set(fields) - {"value", "role"}
            if extra or fields.get("role", "scalar") != "scalar":
                raise InputsError(f"{where}: error: a by-value parameter takes only 'value'")
            args.append(arg)
            continue
        role = "inout" if (p.written and p.read) else ("output" if p.written else "input")
        if p.fields:  # an array of records: each member an array of the records' shape, read or written
            if fields:
                raise InputsError(f"{where}: error: inputs of an array of records cannot be declared yet")
            members = []
            for f in p.fields:
                f_role = ("inout" if p.read else "output") if f.written else "input"
                if lookup_dtype(f.dtype).is_int:
                    members.append(ArgSpec(f.name, f.dtype, f_role, shapes[p.name], 0, smallest - 1, 0))
                else:
                    members.append(ArgSpec(f.name, f.dtype, f_role, shapes[p.name], -1.0, 1.0, 10))
            args.append(ArgSpec(p.name, p.dtype, role, shapes[p.name], fields=tuple(members)))
            continue
        t = lookup_dtype(p.dtype)
        if t.is_int:
            targets = usage.indexes_into.get(p.name, set())
            extents = [shapes[a][d] for a, d in targets]
            high = (min(extents) if extents else smallest) - 1
            if targets and role == "input":
                role = "index"
            arg = ArgSpec(p.name, p.dtype, role, shapes[p.name], 0, high, 0)
        else:
            arg = ArgSpec(p.name, p.dtype, role, shapes[p.name], -1.0, 1.0, 10)
        extra = sorted(set(fields) - ARRAY_FIELDS)
        if extra:  # a field meant for a by-value parameter or a structure: never silently dropped
            raise InputsError(f"{where}: error: an array takes {', '.join(sorted(ARRAY_FIELDS))}, not '{extra[0]}'")
        updates = {k: v for k, v in fields.items() if k in ("role", "low", "high", "grid_bits", "bound")}
        arg = replace(arg, **updates, per_row=_read_per_row(p.name, shapes[p.name], launch, usage),
                      keeps_size=_rows_owned_by_no_launch_index(p.name, shapes[p.name], launch, usage))
        _check_array(arg, p, where)
        args.append(arg)
    return launch, args


def _read_per_row(name: str, shape: tuple[int, ...], launch: tuple[int, ...], usage: Usage) -> bool:
    """Whether a 1-D array under a launch of more dimensions is read by the outermost thread index alone
    (`scale[i]` in `i, j = wp.tid()`), one element per row: it grows with the rows at bench size
    (ArgSpec.per_row), where the rule for an array with fewer dimensions than the launch keeps it."""
    forms = usage.affine.get(name, {}).get(0, [])
    return (len(shape) == 1 < len(launch) and shape[0] == launch[0] and bool(forms)
            and all(form == (0, 1, 0) for form in forms) and 0 not in usage.other_dims.get(name, set()))


def _rows_owned_by_no_launch_index(name: str, shape: tuple[int, ...], launch: tuple[int, ...], usage: Usage) -> bool:
    """Whether an array the shape rule would grow with the launch (its outermost extent a multiple of the
    launch's) is read only at rows another launch index or a constant picks (`weights[co, ci, ky, kx]`
    in `n, co, y, x = wp.tid()`): it keeps its size at bench size (ArgSpec.keeps_size)."""
    forms = usage.affine.get(name, {}).get(0, [])
    return (1 < len(launch) <= len(shape) and shape[0] % launch[0] == 0 and bool(forms)
            and all(axis != 0 for axis, _, _ in forms) and 0 not in usage.other_dims.get(name, set())
            and (name, 0) not in usage.tile_extent)


def structure_input(p, fields: dict, where: str, kernel: TranslatedKernel, fn: ast.FunctionDef) -> ArgSpec:
    """What stands for a hash grid, mesh or BVH parameter: the user's code builds it, so the kernel cannot
    tell its contents. Declared fields (`points`, `shape`, `value`) or STRUCTURE_DEFAULTS; a hash grid's
    or a BVH's points array, when not declared, is the kernel's vec3 input array read at the indices
    its queries yield (or its only vec3 input array)."""
    what = STRUCTURE_NAMES[p.kind]
    extra = set(fields) - {"role", "points", "shape", "value"}
    if extra or fields.get("role", p.kind) != p.kind:
        raise InputsError(f"{where}: error: {what} (wp.uint64 id) takes only 'points', 'shape' and 'value'"
                          if extra else f"{where}: error: it is used as {what}, not as role '{fields['role']}'")
    shape, value = STRUCTURE_DEFAULTS[p.kind]
    shape, value = tuple(fields.get("shape", shape)), fields.get("value", value)
    if isinstance(value, tuple) or not value > 0 and not (p.kind == "bvh" and value == 0):
        meaning = "the boxes' half width, 0 or more" if p.kind == "bvh" else "the cell width, above 0"
        raise InputsError(f"{where}: error: value ({meaning}) must be one number")
    if p.kind == "mesh":
        if "points" in fields:
            raise InputsError(f"{where}: error: a mesh takes no 'points' (the .cu builds a rock mesh)")
        if len(shape) != 1 or shape[0] % 2 or not 2 <= shape[0] <= 64:
            raise InputsError(f"{where}: error: shape of a mesh is [cells], an even number from 2 to 64")
        return ArgSpec(p.name, "uint64", "mesh", shape, value=float(value))
    if p.kind == "hash_grid" and (len(shape) != 3 or max(shape) > 256):
        raise InputsError(f"{where}: error: shape of a hash grid is its cells per axis, [x, y, z], at most 256 each")
    if p.kind == "bvh" and "shape" in fields:
        raise InputsError(f"{where}: error: a BVH takes no 'shape' (one box per point of its points array)")
    vec3_inputs = [q.name for q in kernel.params if q.kind == "array" and q.dtype == "vec3" and not q.written]
    points = fields.get("points") or _points_array(fn, vec3_inputs)
    if points is None:
        raise InputsError(f"{where} of kernel '{kernel.name}': unsupported: {what} (wp.uint64 id) over points "
                          f"the kernel does not read; declare them, a vec3 input array, with points=<array> "
                          f"(`# translate: {p.name} points=<array>` or `args.{p.name}.points` in --inputs)")
    if points not in vec3_inputs:
        raise InputsError(f"{where}: error: points '{points}' is not a vec3 input array of kernel '{kernel.name}'")
    return ArgSpec(p.name, "uint64", p.kind, shape, value=float(value), points=points)


def _points_array(fn: ast.FunctionDef, vec3_inputs: list[str]) -> str | None:
    """The vec3 input array read at the indices a query yields (`x[j]` after `for j in
    wp.hash_grid_query(...)`, `wp.hash_grid_query_next(q, j)` or `wp.bvh_query_next(q, j)`), when one is;
    else the kernel's only vec3 input array; else None."""
    assigned = {t.id: n.value for n in ast.walk(fn) if isinstance(n, ast.Assign) for t in n.targets
                if isinstance(t, ast.Name)}
    yielded = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            it = assigned.get(node.iter.id, node.iter) if isinstance(node.iter, ast.Name) else node.iter
            if isinstance(it, ast.Call) and _is_wp(it.func, "hash_grid_query"):  # a query, or a name bound to one
                yielded.add(node.target.id)
        if (isinstance(node, ast.Call) and _is_wp(node.func, *INDEX_ITERATORS) and len(node.args) > 1
                and isinstance(node.args[1], ast.Name)):
            yielded.add(node.args[1].id)
    read = {n.value.id for n in ast.walk(fn) if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)
            and n.value.id in vec3_inputs and isinstance(n.slice, ast.Name) and n.slice.id in yielded}
    if len(read) > 1:  # positions and velocities, say: the one a query is centred on (`x = pos[i]`, query at x)
        centres = set()

        def arrays_in(expr: ast.expr, seen: set[str]) -> None:  # `x[i]`, `p` (p = x[i]), `lo` (lo = p - r)
            for part in ast.walk(expr):
                if isinstance(part, ast.Subscript) and isinstance(part.value, ast.Name):
                    centres.add(part.value.id)
                elif isinstance(part, ast.Name) and part.id in assigned and part.id not in seen:
                    arrays_in(assigned[part.id], seen | {part.id})

        for call in ast.walk(fn):
            if isinstance(call, ast.Call) and _is_wp(call.func, *QUERY_CALLS) and len(call.args) > 1:
                arrays_in(call.args[1], set())
        read &= centres
    if len(read) == 1:
        return read.pop()
    return vec3_inputs[0] if len(vec3_inputs) == 1 else None


def _default_value(dtype: str):
    t = lookup_dtype(dtype)
    if t.kind == "scalar":
        return 4 if t.is_int else (True if t.scalar == "bool" else 0.5)
    return tuple(0.5 if k % 2 == 0 else -0.25 for k in range(t.width))


def _checked_value(dtype: str, value, where: str):
    t = lookup_dtype(dtype)
    if t.kind == "scalar":
        if isinstance(value, tuple):
            raise InputsError(f"{where}: error: {dtype} takes one number, not a list")
        if t.is_int and not isinstance(value, int):
            raise InputsError(f"{where}: error: {dtype} takes an integer value")
        return value if t.is_int else float(value)
    if not isinstance(value, tuple) or len(value) != t.width:
        raise InputsError(f"{where}: error: {dtype} takes {t.width} numbers (flattened, row-major)")
    return value


def _check_array(arg: ArgSpec, p, where: str) -> None:
    if p.written and arg.role not in ("output", "inout"):
        raise InputsError(f"{where}: error: the kernel writes this array, so its role is 'output' or 'inout', not '{arg.role}'")
    if not p.written and arg.role not in ("input", "index"):
        raise InputsError(f"{where}: error: the kernel only reads this array, so its role is 'input' or 'index', not '{arg.role}'")
    if arg.role == "index" and not arg.is_int:
        raise InputsError(f"{where}: error: role 'index' needs an int array")
    if arg.size * arg.width > MAX_ELEMENTS:
        raise InputsError(f"{where}: error: {arg.size * arg.width} values is over the limit of {MAX_ELEMENTS}")
    if not arg.low <= arg.high:
        raise InputsError(f"{where}: error: low {arg.low} is above high {arg.high}")
    if arg.is_int and (arg.low != int(arg.low) or arg.high != int(arg.high)):
        raise InputsError(f"{where}: error: an int array takes integer low and high")
    if not 0 <= arg.grid_bits <= 24 or (arg.is_int and arg.grid_bits != 0):
        raise InputsError(f"{where}: error: grid_bits must be 0 to 24 (0 for int arrays)")
    lo, span, _ = arg.fill
    if span > 1 << 31 or abs(lo) > 1 << 30:
        raise InputsError(f"{where}: error: the range [{arg.low}, {arg.high}] on a grid of 2**-{arg.grid_bits} is too large")


def file_launches(calls: list[LaunchCall]) -> dict[str, tuple[int, ...]]:
    """Kernel name -> the launch dimensions the file's `wp.launch(kernel, dim=...)` calls give, when
    every such call names the same constant dimensions (`dim=1`, `dim=(1,)`, `dim=N` or `N // 4` with
    N a module int constant); one call whose dim is not constant (or not written: `**kwargs`) sets
    nothing. A serial kernel (`dim=1`: a scan, a counter) launched wide is a race. `wp.launch_tiled`
    calls do not count: their dim is a grid of blocks (tile_launches reads them)."""
    seen: dict[str, set[tuple[int, ...] | None]] = {}
    for call in calls:
        if not call.tiled:
            known = call.dim is not None and call.dim and all(d is not None and d > 0 for d in call.dim)
            seen.setdefault(call.kernel, set()).add(call.dim if known else None)
    return {name: next(iter(dims)) for name, dims in seen.items() if len(dims) == 1 and None not in dims}


def module_int_constants(tree: ast.Module) -> dict[str, int]:
    """Module-level `N = 256` / `N = wp.constant(256)` names (the bounds kernels are written for)."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            if isinstance(value, ast.Call) and _is_wp(value.func, "constant") and len(value.args) == 1:
                value = value.args[0]
            if isinstance(value, ast.Constant) and type(value.value) is int:
                found[node.targets[0].id] = value.value
    return found
