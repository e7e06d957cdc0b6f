"""Python (Warp kernel) -> standalone CUDA C++, by walking the Python AST.

The shape follows Warp's own codegen (`warp/_src/codegen.py`): one translator object per function
walks the AST with an `emit_<NodeType>` method per node type; expressions return a `CExpr` (code,
inferred type, C precedence). Types come from the annotations and propagate through expressions
with Warp's rules (no implicit int/float mixing). Whatever has no method, or breaks a rule, raises
`TranslationError` with `file:line:col`, so a construct is either translated with Warp's semantics
or refused: never translated into CUDA that compiles but computes something else.

The source is parsed, never imported or executed.
"""
from __future__ import annotations

import ast
import copy
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from cuda_production import builtins
from cuda_production.builtins import BuiltinMismatch
from cuda_production.cuda_types import (  # noqa: F401  (CExpr, float_literal, negate: part of this module's API)
    COMPONENTS, MAT_DIM, P_ADD, P_ATOM, P_BAND, P_BOR, P_COND, P_EQ, P_LAND, P_LOR, P_MUL, P_REL, P_SHIFT, P_UNARY,
    P_XOR, FLOAT_TYPES, HALF_CONVERSIONS, INT_TYPES, MATD_DIM, NUMERIC_TYPES, STORAGE_INT_TYPES, TYPE_ALIASES, VEC_LEN, VECD_LEN, ArrayType, CExpr, StructType, ctype, float_literal, is_mat, is_quat, is_transform,
    is_vec, negate, render_snippets, struct_snippet, TileType, LocalVectorType, component_paths,
    HASH_GRID, HASH_GRID_QUERY, MESH, BVH, MESH_QUERY_AABB, StructureType,
)
from cuda_production.bench import THREADS_PER_BLOCK
from cuda_production.kernel_instances import GENERIC_SCALARS, concrete_annotation, generic_params, is_generic_annotation
from synthesis.dtypes import TYPES
from cuda_production.tiles import (
    DEFAULT_TILED_BLOCK_DIM, LOOP_TOP, SHARED_MEMORY_LIMIT, merge_thread_zero_blocks, TILE_BUILTINS, TILE_THREADS, TileLaunch, TileTranslator, launch_calls, tile_launches,
    uses_tiles, zero_of,
)


class TranslationError(Exception):
    """A construct the translator refuses, located as `file:line:col` (column 1-based)."""

    def __init__(self, filename: str, node: ast.AST | None, message: str, kind: str = "unsupported"):
        self.filename = filename
        self.line = getattr(node, "lineno", 0)
        self.col = getattr(node, "col_offset", -1) + 1
        self.construct = message
        super().__init__(f"{filename}:{self.line}:{self.col}: {kind}: {message}")


@dataclass(frozen=True)
class KernelParam:
    name: str
    kind: str  # array | scalar (by value: scalar, vector, matrix, quat, transform) | struct | hash_grid | mesh
    dtype: str  # element type of an array, type of a by-value value, struct name of a struct; HashGrid; Mesh
    ndim: int = 0
    written: bool = False
    read: bool = True
    full_dims: bool = False  # an array whose every extent is passed (its .shape is used), not just the inner ones
    fields: tuple["KernelParam", ...] = ()  # a struct's members, in declaration order
    c_name: str = ""  # the name in the CUDA code when the Python name collides with a C/CUDA name

    @property
    def cname(self) -> str:
        return self.c_name or self.name

    def dim_axes(self) -> range:
        """The axes whose extent travels with an array (row-major indexing needs the inner ones)."""
        return range(0 if self.full_dims else 1, self.ndim)

    def flattened(self) -> tuple["KernelParam", ...]:
        """This parameter as hashed/compared positions (a struct's or a record array's fields, or itself),
        like ArgSpec.flattened."""
        return self.fields if self.fields else (self,)


@dataclass(frozen=True)
class TupleType:
    """The value of a @wp.func returning several values (a C struct of members v0, v1, ...)."""
    name: str  # the C struct's name
    types: tuple


@dataclass(frozen=True)
class RowPlace:
    """Row `row` of the matrix `matrix` (C code of each) as the target of an assignment: C has no
    lvalue for a row of `float m[n][n]`, so a row is stored through `set_row`."""

    matrix: str
    row: str
    n: int


@dataclass
class TranslatedKernel:
    name: str
    params: list[KernelParam]
    launch_ndim: int
    launch_names: tuple[str, ...]  # the kernel's launch-bound parameters (n | dim0, dim1, ...)
    kernel_code: str  # the __global__ function
    device_code: str  # everything the kernel needs before it: structs, helpers, constants, @wp.funcs

    c_name: str = ""  # the __global__ function's name when the kernel's name collides (a kernel named `main`)
    # tiles (cuda_production/tiles.py): threads per block (0: the kernel uses no tiles), whether it is
    # launched with wp.launch_tiled (one block per launch index), where block_dim comes from, and each
    # tile access of an array (name, offset nodes, tile shape) for input inference
    block_dim: int = 0
    tiled: bool = False
    block_dim_origin: str = ""
    tile_accesses: tuple = ()
    # threads per block a kernel staging its stores of large elements must be launched with (0: any)
    stage_threads: int = 0

    @property
    def cname(self) -> str:
        return self.c_name or self.name

    def dim_params(self, p: KernelParam) -> list[str]:
        """Extra int parameters carrying an array's extents (the inner ones, for row-major indexing)."""
        return [f"{p.cname}_dim{k}" for k in p.dim_axes()]


@dataclass
class ModuleInfo:
    filename: str
    funcs: dict[str, ast.FunctionDef] = field(default_factory=dict)
    kernels: dict[str, ast.FunctionDef] = field(default_factory=dict)
    constants: dict[str, tuple[str, object]] = field(default_factory=dict)  # name -> (type, value)
    # module-level vectors of constants (`scale = wp.vec2d(wp.float64(1 / N), 0.5)`): name -> (type, components)
    vector_constants: dict[str, tuple[str, tuple[float, ...]]] = field(default_factory=dict)
    # module-level tuples of numbers (`WEIGHTS = (0.25, 0.5, 0.25)`), read in kernels through wp.static
    # (`wp.static(WEIGHTS[k])` in a loop over `range(wp.static(len(WEIGHTS)))`): name -> (type, values)
    array_constants: dict[str, tuple[str, tuple]] = field(default_factory=dict)
    structs: dict[str, ast.ClassDef] = field(default_factory=dict)
    type_aliases: dict[str, str] = field(default_factory=dict)  # name -> type, from `name = wp.float32`
    foreign_aliases: dict[str, str] = field(default_factory=dict)  # name -> `wp.float16`: a type not translated
    # kernels the translator sees but refuses outright (defined inside a function or class): name -> error
    refused: dict[str, "TranslationError"] = field(default_factory=dict)
    # how each kernel is launched where that matters (kernels using tiles): name -> TileLaunch
    launches: dict[str, TileLaunch] = field(default_factory=dict)
    block_dims: dict[str, int] = field(default_factory=dict)  # declared block_dim per kernel (--inputs)
    # kernels defined inside functions and instances of generic kernels, as module-level kernels (in `kernels`)
    instances: dict[str, object] = field(default_factory=dict)  # name -> kernel_instances.KernelInstance
    refused_def_lines: dict[str, int] = field(default_factory=dict)  # refused kernel -> line of its def
    source: str = ""  # the file's text: how a literal is spelled there (`0x27D4EB2D`)
    _lines: list[str] | None = field(default=None, repr=False, compare=False)

    def spelling(self, node: ast.AST) -> str | None:
        """The text of a one-line node as the file writes it, None where the file is not known."""
        if not self.source or node.end_lineno != node.lineno:
            return None
        if self._lines is None:
            self._lines = self.source.splitlines()
        line = self._lines[node.lineno - 1] if node.lineno <= len(self._lines) else ""
        return line.encode()[node.col_offset:node.end_col_offset].decode(errors="replace")  # offsets count bytes

    def def_line(self, kernel: str) -> int:
        """The line of the `def` a kernel (or instance, or refused kernel) comes from."""
        return self.kernels[kernel].lineno if kernel in self.kernels else self.refused_def_lines.get(kernel, 0)

    def module_names(self) -> set[str]:
        return set(self.funcs) | set(self.kernels) | set(self.constants) | set(self.structs) | set(self.vector_constants) \
            | set(self.array_constants)

    def static_known(self) -> dict[str, tuple[str, object]]:
        """What `wp.static(...)` may fold over: the constants, and the tuples as ("tuple", values)."""
        return {**self.constants, **{k: ("tuple", v) for k, (_, v) in self.array_constants.items()}}


def _is_wp_attr(node: ast.AST, *names: str) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "wp" and node.attr in names


def _decorator_kind(fn: ast.AST) -> str | None:
    for dec in getattr(fn, "decorator_list", ()):
        target = dec.func if isinstance(dec, ast.Call) else dec
        if _is_wp_attr(target, "kernel"):
            return "kernel"
        if _is_wp_attr(target, "func"):
            return "func"
        if _is_wp_attr(target, "struct"):
            return "struct"
    return None


def parse_module(source: str, filename: str, declared_types: dict[str, dict[str, str]] | None = None,
                 declared_captures: dict[str, dict[str, object]] | None = None) -> ModuleInfo:
    """Find the @wp.kernel, @wp.func and @wp.struct definitions and module constants. Nothing is executed.

    Module constants are top-level names bound to a number computed from literals, other constants,
    `math` functions and `wp.constant(...)` (Warp captures their Python value; so do we, folding the
    arithmetic in Python). A kernel defined anywhere but at module level (in a function, a class, an
    `if` block) and each instance of a generic kernel become kernels of their own
    (`kernel_instances`), or are refused with their location. `declared_types`: kernel -> parameter ->
    type, for generic kernels without a wp.overload; `declared_captures`: kernel -> captured name -> value
    (a number or a type name), for captured locals the file does not fix (both from `--inputs`).
    """
    try:
        tree = ast.parse(source, filename)
    except SyntaxError as exc:
        raise TranslationError(filename, exc, f"invalid Python syntax ({exc.msg})", kind="error") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise TranslationError(filename, None, f"cannot parse the file ({type(exc).__name__})", kind="error") from None
    info = ModuleInfo(filename, source=source)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            kind = _decorator_kind(node)
            if kind == "kernel":
                info.kernels[node.name] = node
            elif kind == "func":
                info.funcs[node.name] = node
        elif isinstance(node, ast.ClassDef) and _decorator_kind(node) == "struct":
            info.structs[node.name] = node
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                _bind_module_name(info, target.id, node.value)
            elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple) \
                    and len(target.elts) == len(node.value.elts):  # `np_type, wp_type = np.float32, wp.float32`
                for t, v in zip(target.elts, node.value.elts):
                    if isinstance(t, ast.Name):
                        _bind_module_name(info, t.id, v)
    from cuda_production.kernel_instances import expand  # builds on this module's constant rules

    found = expand(tree, dict(info.kernels), info.constants, info.type_aliases,
                   lambda fn: _decorator_kind(fn) == "kernel", declared_types, info.module_names(), declared_captures)
    for name in found.replaced:
        del info.kernels[name]
    for name, why in found.refused.items():
        info.refused[name] = TranslationError(filename, found.refused_at[name], why)
        info.refused_def_lines[name] = found.def_lines[name]
    for name, instance in found.instances.items():
        info.kernels[name] = instance.node
        info.instances[name] = instance
    info.launches = tile_launches(launch_calls(tree, lambda node: _fold(node, info.constants)))
    return info


_WARP_TYPE_NAME = re.compile(r"(u?int|float)\d+|(vec|mat|quat|transform|spatial_)\w*")


def _bind_module_name(info: ModuleInfo, name: str, value_node: ast.AST) -> None:
    """Record a module-level `name = value`: a type alias, a constant, or neither (forgetting an earlier binding)."""
    info.type_aliases.pop(name, None)
    info.foreign_aliases.pop(name, None)
    alias = value_node.attr if _is_wp_attr(value_node, *TYPE_ALIASES) else None
    if alias is not None:  # `wptype = wp.float32`: a type alias, usable in annotations and casts
        info.type_aliases[name] = TYPE_ALIASES[alias]
        info.constants.pop(name, None)
        return
    if isinstance(value_node, ast.Attribute) and _is_wp_attr(value_node, value_node.attr) \
            and _WARP_TYPE_NAME.fullmatch(value_node.attr):
        info.foreign_aliases[name] = f"wp.{value_node.attr}"  # a Warp type the translator has not: refused by name
    info.vector_constants.pop(name, None)
    info.array_constants.pop(name, None)
    array = _array_constant(value_node, info.static_known())
    if array is not None:
        info.array_constants[name] = array
        info.constants.pop(name, None)
        return
    vector = _vector_constant(value_node, info.constants)
    if vector is not None:
        info.vector_constants[name] = vector
        info.constants.pop(name, None)
        return
    value = _constant_value(value_node, {**info.static_known(), **{k: ("type", v) for k, v in info.type_aliases.items()}})
    if value is None:
        info.constants.pop(name, None)  # rebound to something else: no longer a constant
    else:
        info.constants[name] = value


_MATH_FUNCS = {"sqrt", "sin", "cos", "tan", "exp", "log", "log2", "log10", "floor", "ceil", "atan", "atan2", "pow", "fabs"}


def _constant_value(node: ast.AST, known: dict[str, tuple[str, object]]) -> tuple[str, object] | None:
    """(type, value) of a module-level constant expression, or None if it is not one."""
    value = _fold(node, known)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("int32", value) if -2**31 <= value < 2**31 else None
    if isinstance(value, float):
        return ("float32", value) if math.isfinite(value) else None
    return None


WARP_MAX_UNROLL = 16  # wp.config.max_unroll's default: the longest constant loop Warp unrolls


def _breaks_out(body: list[ast.stmt]) -> bool:
    """A `break` of this loop (not of a loop inside it): in the body or in its ifs, as Warp's
    Adjoint.contains_loop_control looks."""
    return any(isinstance(s, ast.Break) or isinstance(s, ast.If) and (_breaks_out(s.body) or _breaks_out(s.orelse))
               for s in body)


def _unrolled_by_warp(bounds: tuple, body: list[ast.stmt]) -> bool:
    """Whether Warp's codegen unrolls `for ... in range(*bounds)` (bounds: literal values, None for one
    that is not a literal): integer bounds, at most WARP_MAX_UNROLL trips, no break."""
    if not all(type(b) is int for b in bounds) or bounds[2] == 0:
        return False
    return len(range(*bounds)) <= WARP_MAX_UNROLL and not _breaks_out(body)


def _is_static_call(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and _is_wp_attr(node.func, "static")


def _array_constant(node: ast.AST, known: dict[str, tuple[str, object]]) -> tuple[str, tuple] | None:
    """(element type, values) of a tuple of numbers of one kind, all ints or all floats (Warp's
    wp.static reads its elements as the Python values they are: int32 or float32), or None."""
    if not isinstance(node, ast.Tuple) or not node.elts:
        return None
    values = tuple(_fold(e, known) for e in node.elts)
    if all(type(v) is int and -2**31 <= v < 2**31 for v in values):
        return ("int32", values)
    if all(type(v) is float and math.isfinite(v) for v in values):
        return ("float32", values)
    return None


def _vector_constant(node: ast.AST, known: dict[str, tuple[str, object]]) -> tuple[str, tuple[float, ...]] | None:
    """(type, components) of `wp.vec2d(a, b)` / `wp.vec3(x)` with constant components, or None. A component
    may be wrapped in a cast to the vector's scalar type (`wp.float64(1 / N)`); Warp keeps the Python value."""
    if not (isinstance(node, ast.Call) and not node.keywords and isinstance(node.func, ast.Attribute)
            and _is_wp_attr(node.func, node.func.attr) and TYPE_ALIASES.get(node.func.attr) in VEC_LEN | VECD_LEN):
        return None
    vt = TYPE_ALIASES[node.func.attr]
    n = (VEC_LEN | VECD_LEN)[vt]
    values = []
    for arg in node.args:
        if isinstance(arg, ast.Call) and not arg.keywords and len(arg.args) == 1 and (
                _is_wp_attr(arg.func, "float32", "float64") or (isinstance(arg.func, ast.Name) and arg.func.id == "float")):
            arg = arg.args[0]
        v = _fold(arg, known)
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
            return None
        values.append(float(v))
    if len(values) == 1:
        values *= n
    return (vt, tuple(values)) if len(values) == n else None


def _fold(node: ast.AST, known: dict[str, tuple[str, object]]):
    import operator
    if isinstance(node, ast.Constant):
        return node.value if type(node.value) in (int, float, bool) else None
    if isinstance(node, ast.Name):
        return known[node.id][1] if node.id in known else None
    if isinstance(node, ast.Subscript):  # an element of a tuple constant: WEIGHTS[2]
        seq, index = _fold(node.value, known), _fold(node.slice, known)
        if isinstance(seq, tuple) and type(index) is int and -len(seq) <= index < len(seq):
            return seq[index]
        return None
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.value.id in ("math", "np", "numpy") and node.attr in ("pi", "e", "tau"):
            return getattr(math, node.attr)
        if node.value.id == "wp" and node.attr in ("pi", "e", "tau"):
            return getattr(math, node.attr)
        return None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _fold(node.operand, known)
        return None if v is None or isinstance(v, (bool, tuple)) else (-v if isinstance(node.op, ast.USub) else v)
    if isinstance(node, ast.BinOp):
        ops = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
               ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
        fn = ops.get(type(node.op))
        a, b = _fold(node.left, known), _fold(node.right, known)
        if fn is None or a is None or b is None or isinstance(a, (bool, tuple)) or isinstance(b, (bool, tuple)):
            return None
        if isinstance(node.op, ast.Pow) and (abs(b) > 64 or abs(a) > 2**32):
            return None  # keep folding cheap and bounded
        try:
            return fn(a, b)
        except (ArithmeticError, ValueError):
            return None
    if isinstance(node, ast.Call) and not node.keywords and len(node.args) in (1, 2):
        f = node.func
        args = [_fold(a, known) for a in node.args]
        if any(a is None for a in args):
            return None
        try:
            if isinstance(f, ast.Name) and f.id == "len" and len(args) == 1:
                return len(args[0]) if isinstance(args[0], tuple) else None
            if any(isinstance(a, tuple) for a in args):
                return None
            if _is_wp_attr(f, "constant") and len(args) == 1:
                return args[0]
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "math" and f.attr in _MATH_FUNCS:
                return float(getattr(math, f.attr)(*args))
            if isinstance(f, ast.Name) and f.id in known and known[f.id][0] == "type":
                kind = known[f.id][1]  # a module-level alias of a type (wptype = wp.float32)
            elif isinstance(f, ast.Name) and f.id in ("int", "float"):
                kind = f.id
            elif _is_wp_attr(f, "int32", "float32"):
                kind = f.attr
            elif isinstance(f, ast.Name) and f.id in ("round", "abs", "min", "max"):
                return {"round": round, "abs": abs, "min": min, "max": max}[f.id](*args)
            else:
                return None
            if kind not in ("int", "int32", "float", "float32"):
                return None
            return int(args[0]) if kind.startswith("int") else float(args[0])
        except (ArithmeticError, ValueError, TypeError):
            return None
    return None


def _stored_arrays(target: ast.expr) -> set[str]:
    """The arrays an assignment target stores into: the array a subscript chain starts from
    (`a[i]`, `a[i].x`, `s.f[i, j]`), for each element of a tuple target; never an array read in an
    index (`out[ids[tid]] = v` writes `out`, not `ids`)."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return set().union(*(_stored_arrays(e) for e in target.elts))
    node = target
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        if isinstance(node, ast.Subscript) and _array_key(node.value):
            return {_array_key(node.value)}
        node = node.value
    return set()


@dataclass(frozen=True)
class FieldWrites:
    """Writes into members of array elements (`a[i].f = x`, `a[i].f[k] += y`): `fields` holds `a.f`;
    `partial` the arrays written only that way, so only their stored members change (a whole
    element stored, an atomic or a helper writing the array writes every member)."""
    fields: frozenset[str]
    partial: frozenset[str]


def record_field_writes(fn: ast.FunctionDef, written: set[str]) -> FieldWrites:
    fields, whole = set(), set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id == "len"):
            # an array handed to a helper or an atomic: any member may change
            whole.update(a.id for a in [*node.args, *(k.value for k in node.keywords)] if isinstance(a, ast.Name))
            continue
        if not isinstance(node, (ast.Assign, ast.AugAssign)):
            continue
        for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
            for t in target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]:
                chain = t
                while isinstance(chain, (ast.Subscript, ast.Attribute)):
                    if isinstance(chain, ast.Attribute) and isinstance(chain.value, ast.Subscript) \
                            and isinstance(chain.value.value, ast.Name):
                        fields.add(f"{chain.value.value.id}.{chain.attr}")
                        break
                    if isinstance(chain, ast.Subscript) and isinstance(chain.value, ast.Name):
                        whole.add(chain.value.id)
                        break
                    chain = chain.value
    by_field = {key.split(".")[0] for key in fields}
    return FieldWrites(frozenset(fields), frozenset((by_field & written) - whole))


def _array_key(node: ast.AST) -> str | None:
    """`a` for an array name, `s.f` for a struct member: how written arrays are recorded."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def _viewed(node: ast.AST) -> ast.AST:
    """The array of a tile operation's array argument: `x` of a view `x[i]`, else the argument."""
    return node.value if isinstance(node, ast.Subscript) else node


def _arrays_needing_extents(fn: ast.FunctionDef, info: ModuleInfo) -> set[str]:
    """Array names whose every extent the function needs: `.shape`/`len()` is used, or it goes to a helper."""
    names = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute) and node.attr == "shape" and isinstance(node.value, ast.Name):
            names.add(node.value.id)
        if isinstance(node, ast.Call) and _is_wp_attr(node.func, *TILE_MEMORY) and node.args \
                and isinstance(_viewed(node.args[0]), ast.Name):
            names.add(_viewed(node.args[0]).id)  # tile accesses test every extent
        if isinstance(node, ast.Call) and _is_wp_attr(node.func, "lower_bound") and len(node.args) == 2 \
                and isinstance(node.args[0], ast.Name):
            names.add(node.args[0].id)  # searched over its whole extent
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id == "len" and node.args and isinstance(node.args[0], ast.Name):
                names.add(node.args[0].id)
            if isinstance(node.func, ast.Name) and node.func.id in info.funcs:
                names.update(a.id for a in node.args if isinstance(a, ast.Name))
                names.update(k.value.id for k in node.keywords if isinstance(k.value, ast.Name))
    return names


# ---- identifier hygiene --------------------------------------------------------------------------
# Names a Python identifier must not take in the CUDA file: C/C++ keywords and common library names,
# CUDA's built-in variables and functions, the device helpers and types the translator emits, and the
# host harness's own functions. A user's name that collides is renamed (a trailing `_`), consistently.
_C_KEYWORDS = """alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t
class compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype
default delete do double dynamic_cast else enum explicit export extern false float for friend goto if inline int long
mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public register
reinterpret_cast requires restrict return short signed sizeof static static_assert static_cast struct switch template
this thread_local throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while xor
xor_eq NULL main std size_t int32_t uint32_t int64_t uint64_t printf fprintf exit abort malloc free calloc memcpy
memset strcmp atoi stderr stdout FILE fopen fclose fread sin cos tan asin acos atan atan2 sinh cosh tanh exp log log2
log10 sqrt cbrt floor ceil trunc round pow fabs fmod fmin fmax abs min max isnan isinf isfinite INFINITY NAN assert
sinf cosf tanf asinf acosf atanf atan2f sinhf coshf tanhf expf logf log2f log10f sqrtf cbrtf floorf ceilf truncf roundf
powf fabsf fmodf fminf fmaxf fmaf hypot hypotf exp2 exp2f expm1 expm1f log1p log1pf logb logbf ilogb ilogbf erf erff
erfc erfcf erfinv erfinvf lgamma lgammaf tgamma tgammaf copysign copysignf nextafter nextafterf remainder remainderf
remquo remquof fdim fdimf fma ldexp ldexpf frexp frexpf modf modff nearbyint nearbyintf rint rintf lrint lround llround
scalbn scalbnf signbit rsqrt rsqrtf rcbrt rcbrtf rhypot rhypotf norm norm3d norm4d rnorm sincos sincosf sinpi cospi
exp10 exp10f j0 j1 y0 y1 jn yn"""
_CUDA_NAMES = """threadIdx blockIdx blockDim gridDim warpSize dim3 float2 float3 float4 int2 int3 int4 make_float2
make_float3 make_float4 atomicAdd atomicSub atomicMin atomicMax atomicCAS atomicExch __syncthreads __float_as_int
__int_as_float __brev cudaMalloc cudaFree cudaMemcpy cudaError_t cudaSuccess cudaEvent_t"""
_HELPER_NAMES = """mat22 mat33 mat44 quat transform make_quat dot length length_sq normalize cross component transpose outer
matrix_from_rows matrix_from_cols component_ref get_row set_row quat_to_matrix skew
floordiv signf lerp smoothstep determinant inverse trace quat_inverse quat_from_axis_angle quat_rpy quat_rotate
quat_rotate_inv transform_point transform_vector transform_multiply transform_inverse atomicMinFloat atomicMaxFloat
atomicAddFloat2 atomicAddFloat3 atomicAddFloat4 atomicSubFloat2 atomicSubFloat3 atomicSubFloat4 atomicMinFloat2
atomicMinFloat3 atomicMinFloat4 atomicMaxFloat2 atomicMaxFloat3 atomicMaxFloat4 HashGrid HashGridQuery hash_grid_cell_coord hash_grid_index hash_grid_query
hash_grid_query_set_cell hash_grid_query_end hash_grid_query_next hash_grid_point_id Mesh BvhNode BVH_STACK_SIZE
mesh_triangle box_distance_sq triangle_closest_point mesh_nearest_face MeshQueryPoint mesh_query_point_no_sign MeshRayHit
ray_slab ray_box_entry diff_product ray_triangle_hit mesh_nearest_hit mesh_inside_sign mesh_query_point
mesh_query_point_sign_winding_number mesh_query_point_sign_normal MeshQueryRay mesh_query_ray mesh_eval_position
mesh_eval_face_normal Bvh BvhQuery boxes_overlap ray_meets_box bvh_query_hits bvh_query_aabb
bvh_query_ray bvh_query_next bvh_query_sphere sphere_meets_box BvhQueryKind MeshQueryAabb mesh_query_aabb mesh_query_aabb_next
load_node BvhStack bvh_shared_stack BVH_BLOCK_THREADS lower_bound fft_butterfly tile_fft_rows fft_log2 unit_complex"""
_RANDOM_NAMES = """rand_pcg rand_init randi randu randf randn noise pnoise noise_interpolate random_gradient_1d random_gradient_2d
random_gradient_3d random_gradient_4d dot_grid_gradient_1d dot_grid_gradient_2d dot_grid_gradient_3d
dot_grid_gradient_4d atomicMinDouble atomicMaxDouble double2 double3 double4 make_double2 make_double3 make_double4
mat22d mat33d mat44d __half __float2half __half2float __double2half __nv_bfloat16 __float2bfloat16 __bfloat162float
__double2bfloat16"""
_HARNESS_NAMES = """CUDA_CHECK mix32 input_bits fill_float fill_int CheckStats CheckType check_values check_int read_file emu_launch
STAGE_THREADS TILE_THREADS device_copy build_hash_grid free_hash_grid integer_cbrt device_upload rock_bump_hash
rock_mesh build_bvh_node median_split sah_split SAH_BINS build_rock_mesh free_mesh MESH_LEAF_SIZE BVH_LEAF_SIZE
build_points_bvh free_bvh"""
RESERVED_NAMES = frozenset((_C_KEYWORDS + " " + _CUDA_NAMES + " " + _HELPER_NAMES + " " + _RANDOM_NAMES + " "
                            + _HARNESS_NAMES).split())


def needs_rename(name: str) -> bool:
    """Whether a Python identifier would collide with (or is reserved in) the generated C++."""
    return name in RESERVED_NAMES or "__" in name or (name.startswith("_") and name[1:2].isupper()) \
        or re.fullmatch(r".+_dim\d+", name) is not None


def c_identifier(name: str, taken: set[str]) -> str:
    """`name`, or `name_` (`name__`... avoided: `name_1`) when it collides, never one of `taken`."""
    if not needs_rename(name) and name not in taken:
        return name
    base = re.sub("_+", "_", name).strip("_") or "v"
    candidate, k = f"{base}_", 0
    while needs_rename(candidate) or candidate in taken:
        k += 1
        candidate = f"{base}_{k}"
    return candidate


def _hygienic(fn: ast.FunctionDef, module_names: set[str]) -> tuple[ast.FunctionDef, dict[str, str]]:
    """A copy of `fn` whose colliding local names (parameters included) are renamed; and the renames."""
    bound = {a.arg for a in ast.walk(fn.args) if isinstance(a, ast.arg)} if fn.args else set()
    bound |= {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    every = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)} | bound | module_names
    renames: dict[str, str] = {}
    for name in sorted(bound):
        if needs_rename(name):
            new = c_identifier(name, every | set(renames.values()))
            renames[name] = new
    if not renames:
        return fn, {}
    fn = copy.deepcopy(fn)
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id in renames:
            node.id = renames[node.id]
        elif isinstance(node, ast.arg) and node.arg in renames:
            node.arg = renames[node.arg]
        elif isinstance(node, ast.keyword) and node.arg in renames:
            pass  # keyword names are the callee's parameter names, not locals
    return fn, renames


def _names_loaded(nodes: list[ast.stmt]) -> set[str]:
    return {n.id for s in nodes for n in ast.walk(s) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _names_stored(node: ast.stmt) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


# Warp's array annotations and their rank (`wp.array(dtype=T, ndim=k)` gives its own)
ARRAY_RANKS = {"array": 1, "array1d": 1, "array2d": 2, "array3d": 3, "array4d": 4}


# ---- staged stores of large elements (1-D kernels without tiles) ---------------------------------
# `out[tid] = m` with a 36-byte mat33 element is 9 scalar stores per thread, and each warp-wide store
# touches 32 addresses 36 bytes apart: scattered partial-sector writes. Staged, each thread writes
# its element into the block's __shared__ array and, after one barrier, the block's threads copy the
# block's slice of consecutive elements out word by word (consecutive threads, consecutive words).
# Measured on an H100 (notes/design.md): 3.66x and 2.9x faster on two matrix samples. Loads are left
# alone (they go through L1; staging them measured slower). A 28-byte transform (7 floats) gains too
# (H200, session 51: 1.70x and 1.05x on two kernels storing frames, the slower one then 1.27x Warp
# instead of 0.74x); 16-byte quats and vec4s do not (0.93-1.10x), nor 12-byte vec3s: stored as they are.
def restricts(dtype: str) -> bool:
    """Whether a read-only array of `dtype` is declared `__restrict__`: where its element is a power of
    two bytes (a scalar, a vec2/vec4, a quat) or not a registry type (a struct). Measured on the H200
    (session 52): a 12-byte vec3 or 28-byte transform read through `__restrict__` made two frame kernels
    23% and 13% slower (102 vs 83 us, 69 vs 60 us), with no kernel faster; on float arrays it keeps two
    math kernels 14-19% faster (session 51)."""
    if dtype not in TYPES:
        return True
    size = TYPES[dtype].nbytes
    return size & (size - 1) == 0


STAGE_MIN_BYTES = 28  # transform, mat33 and up
STAGE_THREADS = THREADS_PER_BLOCK  # a staging kernel's block, fixed at compile time (bench.block_shape's 1-D block)


@dataclass(frozen=True)
class StagedStore:
    """An array whose `arr[tid] = value` goes through the block's shared memory."""
    array: str  # the array parameter's C name
    dtype: str  # its element type
    stage: str  # the __shared__ array's name
    stride: int  # components per thread in `stage`: the element's, made odd so threads hit distinct banks

    @property
    def width(self) -> int:
        return TYPES[self.dtype].width

    @property
    def scalar(self) -> str:
        return TYPES[self.dtype].component_ctype

    @property
    def shared_bytes(self) -> int:
        return STAGE_THREADS * self.stride * TYPES[self.dtype].component_bytes


PRIVATE_TABLE_TYPES = ("int32", "uint32")  # integer sums: the same in any order, so per block first is exact


def privatizable_tables(fn: ast.FunctionDef, arrays: dict[str, ArrayType], small_tables: Mapping[str, int]) -> list[str]:
    """The small fixed-size integer tables (histograms, counts per bucket) of a 1-D kernel without
    tiles that each block may count into a private copy in shared memory first, adding its counts to
    the table once at its end: what a person writes for a histogram, and tens of times faster than
    every thread's atomic on a few global addresses. The rule, checked on the AST:
    - the kernel has no `return` of its own (every thread must reach the block's barriers; the
      launch guard becomes `if (tid < n) { ... }`), and `wp.tid()` gives one index;
    - the table is one of `small_tables` (its size known), of int32 or uint32 elements;
    - every mention of it adds to an element with an unused result: `wp.atomic_add(t, i, v)` or
      `wp.atomic_sub` as a statement, `t[i] += v` or `t[i] -= v`; or reads its extents (`t.shape[k]`).
      Nothing reads an element, stores one, or passes the table to a @wp.func."""
    if any(isinstance(node, ast.Return) for node in ast.walk(fn)):
        return []
    if any(isinstance(s, ast.Assign) and isinstance(s.value, ast.Call) and _is_wp_attr(s.value.func, "tid")
           and not isinstance(s.targets[0], ast.Name) for s in fn.body):
        return []  # `i, j = wp.tid()`: not a 1-D launch
    parents = {child: parent for parent in ast.walk(fn) for child in ast.iter_child_nodes(parent)}

    def adds(name: ast.Name) -> bool | None:
        """True: `name` is an added-to table here; None: its extents are read; False: anything else."""
        parent = parents.get(name)
        if isinstance(parent, ast.Attribute) and parent.attr == "shape":
            return None
        if isinstance(parent, ast.Call) and parent.args and parent.args[0] is name \
                and _is_wp_attr(parent.func, "atomic_add", "atomic_sub") and not parent.keywords:
            return isinstance(parents.get(parent), ast.Expr)
        if isinstance(parent, ast.Subscript) and parent.value is name:
            update = parents.get(parent)
            return isinstance(update, ast.AugAssign) and update.target is parent and isinstance(update.op, (ast.Add, ast.Sub))
        return False

    found = []
    for name, size in small_tables.items():
        arr = arrays.get(name)
        if arr is None or arr.dtype not in PRIVATE_TABLE_TYPES:
            continue
        uses = [adds(n) for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name]
        if True in uses and False not in uses:
            found.append(name)
    return found


def stageable_arrays(fn: ast.FunctionDef, arrays: dict[str, ArrayType]) -> list[tuple[str, ast.Assign]]:
    """The arrays of a 1-D kernel without tiles whose store may be staged, each with its one store.

    Staging defers a thread's store to after a barrier that every thread of the block reaches, and
    then the block writes the elements of threads [first, first + blockDim.x) that are inside the
    launch. That computes what the kernel computes only when (the rule, checked on the AST):
    - the array is 1-D and its element is STAGE_MIN_BYTES or more (synthesis/dtypes.py);
    - the kernel has no `return` of its own (a thread leaving early would skip the barrier; the
      launch guard becomes `if (tid < n) { ... }`);
    - it is written exactly once, by `arr[tid] = value` with the thread index as the only index, a
      statement at the kernel's top level (so every thread inside the launch writes its element,
      once): not in a branch or loop, never by `+=`, an atomic, or a @wp.func it is passed to;
    - any other mention of it is a read of `arr[tid]` at or before that statement (later reads
      would not see the staged value, and reads of other elements would race with the deferred
      stores differently from Warp), or its extents (`arr.shape[k]`, `len(arr)`).
    Anything else keeps the plain store."""
    if any(isinstance(node, ast.Return) for node in ast.walk(fn)):
        return []
    tid_stmts = [s for s in fn.body if isinstance(s, ast.Assign) and isinstance(s.value, ast.Call)
                 and _is_wp_attr(s.value.func, "tid")]
    if tid_stmts and sum(isinstance(n, ast.Call) and _is_wp_attr(n.func, "tid") for n in ast.walk(fn)) > 1:
        return []  # refused by emit_thread_index
    if tid_stmts:
        if len(tid_stmts[0].targets) != 1 or not isinstance(tid_stmts[0].targets[0], ast.Name):
            return []  # `i, j = wp.tid()`: not a 1-D launch
        tid = tid_stmts[0].targets[0].id
        if any(isinstance(n, ast.Name) and n.id == tid and isinstance(n.ctx, ast.Store) and n is not tid_stmts[0].targets[0]
               for n in ast.walk(fn)):
            return []  # rebound (a loop variable of the same name): not the thread index everywhere

        def is_tid(node: ast.AST) -> bool:
            return isinstance(node, ast.Name) and node.id == tid
    else:
        def is_tid(node: ast.AST) -> bool:
            return isinstance(node, ast.Call) and _is_wp_attr(node.func, "tid") and not node.args
    parents = {child: parent for parent in ast.walk(fn) for child in ast.iter_child_nodes(parent)}
    top = {node: k for k, stmt in enumerate(fn.body) for node in ast.walk(stmt)}
    found = []
    for name, arr in arrays.items():
        if arr.ndim != 1 or arr.dtype not in TYPES or TYPES[arr.dtype].nbytes < STAGE_MIN_BYTES:
            continue
        stores: list[ast.Assign] = []
        reads: list[int] = []  # top-level statement of each read of arr[tid]
        safe = True
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Name) and node.id == name):
                continue
            parent = parents.get(node)
            if isinstance(parent, ast.Attribute) and parent.attr == "shape":
                continue
            if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "len" \
                    and parent.args == [node]:
                continue
            if isinstance(parent, ast.Subscript) and parent.value is node and is_tid(parent.slice):
                stmt = parents.get(parent)
                if isinstance(parent.ctx, ast.Store) and isinstance(stmt, ast.Assign) and stmt.targets == [parent] \
                        and stmt in fn.body:
                    stores.append(stmt)
                    continue
                if isinstance(parent.ctx, ast.Load):
                    reads.append(top[node])
                    continue
            safe = False
            break
        if safe and len(stores) == 1 and all(k <= fn.body.index(stores[0]) for k in reads):
            found.append((name, stores[0]))
    return found


class FunctionTranslator(TileTranslator):
    """Translates one @wp.kernel or @wp.func body (the counterpart of Warp's `Adjoint`)."""

    def __init__(self, module: "ModuleTranslator", fn: ast.FunctionDef, is_kernel: bool,
                 bound: Mapping[str, object] | None = None):
        self.module = module
        fn, self.renames = _hygienic(fn, module.info.module_names())
        # an instance of a generic @wp.func: each generic parameter's type, from the call (as Warp
        # makes an overload per argument types), under the parameter's C name
        self.bound = {self.renames.get(p, p): t for p, t in (bound or {}).items()}
        self.fn = fn
        self.is_kernel = is_kernel
        self.filename = module.info.filename
        self.lines: list[str] = []
        self.indent = 1
        self.scopes: list[dict[str, object]] = [{}]
        self.pending: dict[str, object] = {}  # hoisted names whose type the first assignment fixes
        self.arrays: dict[str, ArrayType] = {}
        self.params: list[KernelParam] = []
        self.return_type: str | None = None
        self.tid_names: tuple[str, ...] = ()
        self.loop_depth = 0
        self.query_loops = 0  # while loops advancing a BVH or mesh box query that the code is inside
        self.static_loop_vars: set[str] = set()  # loop variables of `range(wp.static(...))` loops (unrolled)
        self.fresh_names: set[str] = set()
        self.launch_ndim = 0
        # tiles (TileTranslator): threads per block (0: no tiles), buffers, the pending assignment target
        self.block_dim = 0
        self.tiled = False
        self.block_dim_origin = ""
        self.shared_at = 0
        self.init_tile_state()
        # the C name every `wp.tid()` used as a value stands for (`x = a[wp.tid()]`: a 1-D launch's index)
        self.tid_value: str | None = None
        # where a statement cannot be placed before the expression being translated (a while
        # condition, an elif condition): the reason, refusing calls that need one (stateful builtins)
        self.no_statements: str | None = None
        # staged stores (1-D kernels without tiles): each staged array's one `arr[tid] = value` -> its staging
        self.staged: dict[ast.Assign, StagedStore] = {}
        self.private: dict[str, str] = {}  # small integer table -> its block's private copy (`privatizable_tables`)
        self.private_index = ""

    # ---- errors and lookup ---------------------------------------------------------------------
    def unsupported(self, node: ast.AST, what: str) -> TranslationError:
        return TranslationError(self.filename, node, what)

    def error(self, node: ast.AST, what: str) -> TranslationError:
        return TranslationError(self.filename, node, what, kind="error")

    def lookup(self, name: str):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def out(self, line: str) -> None:
        self.lines.append("    " * self.indent + line if line else "")

    # ---- types from annotations ----------------------------------------------------------------
    def annotation_type(self, node: ast.AST | None):
        if node is None:
            raise self.error(self.fn, f"parameter without a type annotation in '{self.fn.name}'")
        if isinstance(node, ast.Name) and node.id in TYPE_ALIASES:
            return TYPE_ALIASES[node.id]
        if isinstance(node, ast.Name) and node.id in self.module.info.structs:
            return self.module.struct_type(node.id, node)
        if isinstance(node, ast.Name) and node.id in self.module.info.type_aliases:
            return self.module.info.type_aliases[node.id]
        if isinstance(node, ast.Name) and node.id in self.module.info.foreign_aliases:
            raise self.unsupported(node, f"type {self.module.info.foreign_aliases[node.id]}")
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "wp":
            if node.attr in TYPE_ALIASES:
                return TYPE_ALIASES[node.attr]
            raise self.unsupported(node, f"type wp.{node.attr}")
        # wp.array[T]
        if isinstance(node, ast.Subscript) and _is_wp_attr(node.value, *ARRAY_RANKS):
            ndim = ARRAY_RANKS[node.value.attr]
            return ArrayType(self.array_element_type(node.slice), ndim)
        # wp.array(dtype=T, ndim=k) / wp.array2d(dtype=T)
        if isinstance(node, ast.Call) and _is_wp_attr(node.func, *ARRAY_RANKS):
            ndim = ARRAY_RANKS[node.func.attr]
            dtype = None
            for kw in node.keywords:
                if kw.arg == "dtype":
                    dtype = self.array_element_type(kw.value)
                elif kw.arg == "ndim":
                    if not (isinstance(kw.value, ast.Constant) and kw.value.value in (1, 2, 3, 4)):
                        raise self.unsupported(kw.value, "array ndim other than 1, 2, 3 or 4")
                    ndim = kw.value.value
                else:
                    raise self.unsupported(kw, f"array argument '{kw.arg}'")
            if node.args:
                dtype = self.scalar_or_vec(node.args[0])
            if dtype is None:
                raise self.unsupported(node, "array without dtype")
            return ArrayType(dtype, ndim)
        raise self.unsupported(node, f"type annotation '{ast.unparse(node)}'")

    def array_element_type(self, node: ast.AST):
        """An array's dtype: a scalar, vector, matrix, quat or transform, or a @wp.struct of such
        members (an array of records: `particles[i].vel`)."""
        t = self.annotation_type(node)
        if isinstance(t, StructType):
            for fname, ft in t.fields:
                if isinstance(ft, ArrayType):
                    raise self.unsupported(node, f"array of struct '{ast.unparse(node)}', whose member '{fname}' is an array")
            return t
        return self.scalar_or_vec(node)

    def scalar_or_vec(self, node: ast.AST) -> str:
        t = self.annotation_type(node)
        if isinstance(t, (ArrayType, StructType)) or t == "bool":
            raise self.unsupported(node, f"array of {ast.unparse(node)}")
        return t

    # ---- function level ------------------------------------------------------------------------
    def translate(self) -> str:
        fn = self.fn
        a = fn.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults:
            raise self.unsupported(fn, "default, keyword-only or variadic parameters")
        written = self.module.written_arrays(fn)
        field_writes = record_field_writes(fn, written)
        needs_dims = _arrays_needing_extents(fn, self.module.info)
        loaded = _names_loaded(fn.body)
        for arg in a.args:
            if _is_wp_attr(arg.annotation, "uint64"):
                param = self.id_param(arg)
                self.params.append(param)
                self.scopes[0][arg.arg] = {"hash_grid": HASH_GRID, "mesh": MESH, "bvh": BVH}[param.kind]
                continue
            t = self.bound[arg.arg] if arg.arg in self.bound else self.annotation_type(arg.annotation)
            if isinstance(t, ArrayType):
                self.arrays[arg.arg] = t
                full = not self.is_kernel or arg.arg in needs_dims
                if isinstance(t.dtype, StructType):  # an array of records: which members the function writes
                    whole = arg.arg in written and arg.arg not in field_writes.partial
                    fields = tuple(KernelParam(fname, "scalar", ft, written=whole or f"{arg.arg}.{fname}" in field_writes.fields,
                                               c_name=t.dtype.c_member(fname))
                                   for fname, ft in t.dtype.fields)
                    self.params.append(KernelParam(arg.arg, "array", t.dtype.name, t.ndim, arg.arg in written,
                                                   arg.arg in loaded, full, fields))
                    self.scopes[0][arg.arg] = t
                    continue
                self.params.append(KernelParam(arg.arg, "array", t.dtype, t.ndim, arg.arg in written, arg.arg in loaded, full))
            elif isinstance(t, StructType):
                fields = tuple(
                    KernelParam(fname, "array", ft.dtype, ft.ndim, f"{arg.arg}.{fname}" in written, True, True,
                                c_name=t.c_member(fname))
                    if isinstance(ft, ArrayType) else KernelParam(fname, "scalar", ft, c_name=t.c_member(fname))
                    for fname, ft in t.fields)
                self.params.append(KernelParam(arg.arg, "struct", t.name, fields=fields))
            else:
                self.params.append(KernelParam(arg.arg, "scalar", t))
            self.scopes[0][arg.arg] = t
        if not self.is_kernel and fn.returns is not None and not (self.bound and is_generic_annotation(fn.returns)):
            if not (isinstance(fn.returns, ast.Constant) and fn.returns.value is None):
                self.return_type = self.return_annotation(fn.returns)
        if self.is_kernel:
            if fn.returns is not None and not (isinstance(fn.returns, ast.Constant) and fn.returns.value is None):
                raise self.error(fn.returns, "a kernel cannot return a value")
            if uses_tiles(fn):
                launch = self.module.launch_of(fn.name)
                self.block_dim, self.tiled, self.block_dim_origin = launch.block_dim, launch.tiled, launch.origin
                self.emit_tiled_thread_index(fn, launch)
            else:
                self.plan_staged_stores(fn)
                self.plan_private_tables(fn)
                self.emit_thread_index(fn)
        self.emit_block(fn.body)
        if self.staged or self.private:
            self.emit_block_epilogue()
        if self.block_dim and self.tiles:
            self.lines[self.shared_at:self.shared_at] = ["    " + d for d in self.shared_declarations()] + [""]
        elif self.block_dim:
            self.shared_declarations()  # none: checks that no lazy tile was left in the code
        return "\n".join(merge_thread_zero_blocks([line for line in self.lines if not line.lstrip().startswith(LOOP_TOP)]))

    def id_param(self, arg: ast.arg) -> KernelParam:
        """A `wp.uint64` parameter, translated when it is a hash grid's or a mesh's id (id_kind). It becomes
        the structure itself: a kernel's, a `HashGrid` or a `Mesh` passed by value (main() builds it); a
        @wp.func's, a mesh the kernel passes on (`const Mesh&`). A hash grid is a kernel parameter only."""
        kind = self.id_kind(self.fn, arg.arg)
        if kind == "hash_grid" and not self.is_kernel:
            raise self.unsupported(arg, f"wp.uint64 parameter '{arg.arg}' of a @wp.func used as a hash grid (hash grid "
                                        "ids are translated as kernel parameters only)")
        if kind == "bvh" and not self.is_kernel:
            raise self.unsupported(arg, f"wp.uint64 parameter '{arg.arg}' of a @wp.func used as a BVH (BVH ids are "
                                        "translated as kernel parameters only)")
        return KernelParam(arg.arg, kind, {"hash_grid": "HashGrid", "mesh": "Mesh", "bvh": "Bvh"}[kind])

    def id_kind(self, fn: ast.FunctionDef, param: str, helpers: tuple[str, ...] = ()) -> str:
        """What the `wp.uint64` parameter `param` of `fn` is the id of, "hash_grid", "mesh" or "bvh", told by
        its uses: each is the `id` argument of a hash grid builtin (HASH_GRID_CALLS), a mesh builtin
        (MESH_CALLS) or a BVH query (BVH_CALLS), or an argument of a @wp.func whose parameter is a mesh by
        its own uses; never two kinds. Any other use, and any other id (a volume), is refused: its type
        cannot be told from the code. `helpers`: the @wp.funcs being looked into (a recursive one is refused)."""
        what = f"wp.uint64 parameter '{param}'"
        parents = {child: parent for parent in ast.walk(fn) for child in ast.iter_child_nodes(parent)}
        uses = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == param]
        if not uses:
            raise self.unsupported(next(a for a in fn.args.args if a.arg == param),
                                   f"{what} that is no hash grid's, mesh's or BVH's id (no wp.hash_grid_*, wp.mesh_* "
                                   "or wp.bvh_query_* query takes it; other ids are not translated)")
        kinds = set()
        for use in uses:
            call = parents.get(use)
            as_id = isinstance(call, ast.Call) and ((call.args and call.args[0] is use)
                                                    or any(k.arg == "id" and k.value is use for k in call.keywords))
            why = ""
            if as_id and _is_wp_attr(call.func, *HASH_GRID_CALLS):
                kinds.add("hash_grid")
                continue
            if as_id and _is_wp_attr(call.func, *MESH_CALLS):
                kinds.add("mesh")
                continue
            if as_id and _is_wp_attr(call.func, *BVH_CALLS):
                kinds.add("bvh")
                continue
            if as_id and isinstance(call.func, ast.Attribute) and _is_wp_attr(call.func, call.func.attr):
                why = f": wp.{call.func.attr} is not translated"
            helper = self.helper_param(call, use) if isinstance(call, ast.Call) else None
            if helper is not None and helper[0] not in helpers:
                kind = self.id_kind(self.module.info.funcs[helper[0]], helper[1], helpers + (helper[0],))
                if kind == "mesh":
                    kinds.add(kind)
                    continue
                why = (f": a {ID_KIND_NAMES[kind]} passed to the @wp.func '{helper[0]}' (only meshes are passed to "
                       "helpers)")
            raise self.unsupported(use, f"{what} used other than as the grid of wp.hash_grid_query / "
                                        "wp.hash_grid_point_id, the mesh of wp.mesh_query_point(_no_sign, "
                                        "_sign_normal, _sign_winding_number) / wp.mesh_query_ray / wp.mesh_query_aabb / "
                                        "wp.mesh_eval_position / wp.mesh_eval_face_normal or the BVH of "
                                        "wp.bvh_query_aabb / wp.bvh_query_ray / wp.bvh_query_sphere (only those queries are translated; "
                                        f"volumes are not){why}")
        if len(kinds) > 1:
            first, second = (ID_KIND_NAMES[k] for k in sorted(kinds, key=list(ID_KIND_NAMES).index)[:2])
            raise self.unsupported(next(a for a in fn.args.args if a.arg == param),
                                   f"{what} used both as a {first} and as a {second}")
        return kinds.pop()

    def helper_param(self, call: ast.Call, value: ast.AST) -> tuple[str, str] | None:
        """(@wp.func, its `wp.uint64` parameter) that `value`, an argument of `call`, is passed as."""
        if not (isinstance(call.func, ast.Name) and call.func.id in self.module.info.funcs):
            return None
        params = self.module.info.funcs[call.func.id].args.args
        for k, a in enumerate(call.args):
            if a is value and k < len(params) and _is_wp_attr(params[k].annotation, "uint64"):
                return call.func.id, params[k].arg
        for kw in call.keywords:
            match = [p for p in params if p.arg == kw.arg and _is_wp_attr(p.annotation, "uint64")]
            if kw.value is value and match:
                return call.func.id, kw.arg
        return None

    def return_annotation(self, node: ast.AST):
        """`-> T`, or `-> tuple[T0, T1]` / `Tuple[...]` for a helper returning several values."""
        if isinstance(node, ast.Subscript) and isinstance(node.value, (ast.Name, ast.Attribute)) \
                and (getattr(node.value, "id", None) in ("tuple", "Tuple") or getattr(node.value, "attr", None) == "Tuple"):
            elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            return self.module.tuple_type(self.fn.name, tuple(self.annotation_type(e) for e in elts))
        return self.annotation_type(node)

    def emit_thread_index(self, fn: ast.FunctionDef) -> None:
        """`i, j = wp.tid()` becomes a bounds-checked index per grid axis, before anything else."""
        found = []
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and _is_wp_attr(node.func, "tid"):
                found.append(node)
        tid_stmt = None
        for stmt in fn.body:
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and _is_wp_attr(stmt.value.func, "tid"):
                tid_stmt = stmt
                break
        taken_names = {p.name for p in self.params} | {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
        if not found:
            names: tuple[str, ...] = ("tid",)
        elif tid_stmt is None:  # wp.tid() only as a value: the thread's index in a 1-D launch
            names = (self.tid_value_name(taken_names),)
        else:
            if len(found) > 1:
                raise self.unsupported(found[0], "wp.tid() other than one `i[, j, k] = wp.tid()` at the kernel's top level")
            target = tid_stmt.targets[0]
            if isinstance(target, ast.Name):
                names = (target.id,)
            elif isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts) and 1 <= len(target.elts) <= 4:
                names = tuple(e.id for e in target.elts)
            else:
                raise self.unsupported(target, "wp.tid() target")
        self.tid_names = names
        taken = {p.name for p in self.params} | set(names) | {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
        if len(names) == 1:
            bound = next(b for b in ("n", "num_threads", "n_threads", "launch_n") if b not in taken)
            self.launch_names = (bound,)
            for staged in self.staged.values():
                self.out(f"// {staged.array}'s {TYPES[staged.dtype].nbytes}-byte elements: the block stages its slice here "
                         "and writes it out contiguously")
                self.out(f"__shared__ {staged.scalar} {staged.stage}[STAGE_THREADS * {staged.stride}];")
            self.emit_private_tables()
            self.out(f"const int {names[0]} = blockIdx.x * blockDim.x + threadIdx.x;")
            if self.staged or self.private:
                # every thread must reach the barrier before the copy-out: no early return
                self.out(f"if ({names[0]} < {bound}) {{")
                self.indent += 1
            else:
                self.out(f"if ({names[0]} >= {bound})")
                self.out("    return;")
        else:
            bounds = tuple(f"dim{k}" if f"dim{k}" not in taken else f"launch_dim{k}" for k in range(len(names)))
            if "dim3" in bounds:  # CUDA's dim3 type: a 4-D launch's extents all take the longer name
                bounds = tuple(f"launch_dim{k}" for k in range(len(names)))
            self.launch_names = bounds
            # The last index varies fastest, so it takes the x axis: neighbouring threads touch
            # neighbouring elements of row-major arrays. A 4-D launch (a batch of multi-channel
            # images: n, c, y, x) has one grid axis too few: z counts its image planes (n, c), as
            # CUDA code over NCHW tensors does.
            tests = []
            if len(names) == 4:
                plane = self.fresh_plain("plane")
                self.out(f"const int {plane} = blockIdx.z * blockDim.z + threadIdx.z;")
                self.out(f"const int {names[0]} = {plane} / {bounds[1]};")
                self.out(f"const int {names[1]} = {plane} % {bounds[1]};")
                per_axis = list(zip((2, 3), "yx"))
                tests.append(f"{names[0]} >= {bounds[0]}")
            else:
                per_axis = list(zip(range(len(names)), "xyz"[: len(names)][::-1]))
            for k, axis in per_axis:
                self.out(f"const int {names[k]} = blockIdx.{axis} * blockDim.{axis} + threadIdx.{axis};")
            cond = " || ".join(tests + [f"{names[k]} >= {bounds[k]}" for k, _ in per_axis])
            self.out(f"if ({cond})")
            self.out("    return;")
        if not (self.staged or self.private):
            self.out("")
        for n in names:
            self.scopes[0][n] = "int32"

    def plan_staged_stores(self, fn: ast.FunctionDef) -> None:
        """Which arrays' stores go through shared memory (stageable_arrays' rule), within CUDA's static
        __shared__ limit; only for a 1-D launch."""
        used = 0
        for name, store in stageable_arrays(fn, self.arrays):
            dtype = self.arrays[name].dtype
            if isinstance(dtype, StructType) or TYPES[dtype].component_bytes not in (4, 8):  # records: stored as they are
                continue
            width = TYPES[dtype].width
            # A stride of an even number of components puts threads 2, 4, ... apart on the same bank
            # (mat44: 16 floats, 16-way conflicts); an odd one spreads a warp over every bank.
            staged = StagedStore(name, dtype, self.fresh(f"{name}_stage"), width | 1)
            if used + staged.shared_bytes > SHARED_MEMORY_LIMIT:
                continue
            used += staged.shared_bytes
            self.staged[store] = staged

    def emit_staged_store(self, node: ast.Assign, staged: StagedStore) -> None:
        """`arr[tid] = value` of a staged array: the value's components into the block's staging array."""
        value = self.emit(node.value)
        place = self.emit_Subscript(node.targets[0])
        self.check_same(node, place.type, value.type, "assignment")
        source = value.code
        if not re.fullmatch(r"[A-Za-z_]\w*", source):
            source = self.fresh(f"{staged.array}_value")
            self.out(f"const {self.module.ctype(value.type)} {source} = {value.code};")
        self.out(f"// {ast.unparse(node.targets[0])} = {source}: staged, written out by the block after the barrier")
        for k, path in enumerate(component_paths(staged.dtype)):
            self.out(f"{staged.stage}[threadIdx.x * {staged.stride} + {k}] = {source}{path};")

    def plan_private_tables(self, fn: ast.FunctionDef) -> None:
        """Which small integer tables each block counts into a copy of its own (`privatizable_tables`)."""
        for name in privatizable_tables(fn, self.arrays, self.module.small_tables):
            self.private[name] = self.fresh_plain(f"{name}_block")
        if self.private:
            self.private_index = self.fresh_plain("k")  # the loops over a copy's elements (scopes of their own)

    def emit_private_tables(self) -> None:
        """Each private copy declared and zeroed by the block's threads, then a barrier."""
        if not self.private:
            return
        for name, copy in self.private.items():
            size, ctype_ = self.module.small_tables[name], self.module.ctype(self.arrays[name].dtype)
            self.out(f"// {name}: this block adds into its own copy in shared memory, and that into {name} once, at the end")
            self.out(f"__shared__ {ctype_} {copy}[{size}];")
            self.emit_over_copy(size, lambda k: [f"{copy}[{k}] = 0;"])
        self.out("__syncthreads();")

    def emit_over_copy(self, size: int, lines) -> None:
        """`lines(k)` for every element k of a block's private copy of `size` elements, shared out
        among the block's threads (a one-element copy: thread 0)."""
        if size == 1:
            body = lines("0")
            self.out("if (threadIdx.x == 0) {" if len(body) > 1 else "if (threadIdx.x == 0)")
            for line in body:
                self.out("    " + line)
            if len(body) > 1:
                self.out("}")
            return
        k = self.private_index
        self.out(f"for (int {k} = threadIdx.x; {k} < {size}; {k} += blockDim.x)")
        for line in lines(k):
            self.out("    " + line)

    def emit_block_epilogue(self) -> None:
        """Close the launch guard, wait for the whole block, then write out what it staged or counted."""
        self.indent -= 1
        self.out("}")
        done = "staged elements" if not self.private else "additions" if not self.staged else "staged elements and additions"
        self.out(f"__syncthreads();  // the block's {done} are all in shared memory")
        if self.staged:
            self.emit_staged_copy_out()
        for name, copy in self.private.items():
            self.emit_over_copy(self.module.small_tables[name],
                                lambda k: [f"if ({copy}[{k}] != 0)", f"    atomicAdd(&{name}[{k}], {copy}[{k}]);"])

    def emit_staged_copy_out(self) -> None:
        """Copy each staged slice out (after the block's barrier): consecutive threads write consecutive
        components of the block's consecutive elements."""
        bound = self.launch_names[0]
        for staged in self.staged.values():
            first, count, dst, k = (self.fresh(f"{staged.array}_{what}") for what in ("first", "count", "slice", "k"))
            self.out("{")
            self.indent += 1
            self.out(f"// {staged.array}[{first} .. {first} + {count} / {staged.width}): the elements of this block's threads inside the launch")
            self.out(f"const int {first} = blockIdx.x * STAGE_THREADS;")
            self.out(f"const int {count} = min(STAGE_THREADS, {bound} - {first}) * {staged.width};")
            self.out(f"{staged.scalar}* {dst} = reinterpret_cast<{staged.scalar}*>({staged.array} + {first});")
            source = k if staged.stride == staged.width else f"{k} / {staged.width} * {staged.stride} + {k} % {staged.width}"
            self.out(f"for (int {k} = threadIdx.x; {k} < {count}; {k} += STAGE_THREADS)")
            self.out(f"    {dst}[{k}] = {staged.stage}[{source}];")
            self.indent -= 1
            self.out("}")

    def tid_value_name(self, taken: set[str]) -> str:
        self.tid_value = next(n for n in ("tid", "thread_index", "launch_index", "tid_") if n not in taken)
        return self.tid_value

    def emit_tiled_thread_index(self, fn: ast.FunctionDef, launch: TileLaunch) -> None:
        """The thread's indices in Warp's launch, for a kernel using tiles (a 1-D grid of 1-D blocks).

        wp.launch_tiled: block b runs launch index b (row-major over the launch), its threads share
        it; a name past the launch's rank is the thread's lane. wp.launch: Warp's linear thread index,
        blockDim.x consecutive threads forming a block, unravelled row-major."""
        tid_stmt = next((s for s in fn.body if isinstance(s, ast.Assign) and isinstance(s.value, ast.Call)
                         and _is_wp_attr(s.value.func, "tid")), None)
        found = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and _is_wp_attr(n.func, "tid")]
        if found and tid_stmt is not None and len(found) > 1:
            raise self.unsupported(found[0], "wp.tid() other than one `i[, j, k] = wp.tid()` at the kernel's top level")
        names: tuple[str, ...] = ()
        if found and tid_stmt is None:  # wp.tid() only as a value: the thread's index in a 1-D wp.launch
            if launch.tiled or (launch.ndim or 1) != 1:
                raise self.unsupported(found[0], "wp.tid() as a value in a launch of several dimensions "
                                                 "(wp.launch_tiled adds the block's); assign it: `i, j = wp.tid()`")
            taken = {p.name for p in self.params} | {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
            names = (self.tid_value_name(taken),)
        elif tid_stmt is not None:
            target = tid_stmt.targets[0]
            elts = target.elts if isinstance(target, ast.Tuple) else [target]
            if not all(isinstance(e, ast.Name) for e in elts) or not 1 <= len(elts) <= 4:
                raise self.unsupported(target, "wp.tid() target")
            names = tuple(e.id for e in elts)
        lane = None
        ndim = launch.ndim or max(1, len(names))
        if launch.tiled and len(names) == ndim + 1:
            names, lane = names[:-1], names[-1]
        if len(names) > ndim or ndim > 3:
            raise self.unsupported(tid_stmt or fn, f"wp.tid() of {len(names) + (lane is not None)} indices in a launch "
                                                   f"of {ndim} dimensions{' plus the block' if launch.tiled else ''}")
        self.launch_ndim = ndim
        self.tid_names = names + ((lane,) if lane else ())
        taken = set(names) | {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)} | {p.name for p in self.params}
        if ndim == 1:
            self.launch_names = (next(b for b in ("n", "num_threads", "n_threads", "launch_n") if b not in taken),)
        else:
            self.launch_names = tuple(f"dim{k}" if f"dim{k}" not in taken else f"launch_dim{k}" for k in range(ndim))
        bounds = self.launch_names
        if launch.tiled:
            self.out(f"// wp.launch_tiled: block b of {self.block_dim} threads runs launch index b; its threads share the tiles")
            linear = "blockIdx.x"
        else:
            linear = self.fresh("thread")
            self.out(f"// Warp's linear thread index; {self.block_dim} consecutive threads form a block and share the tiles")
            self.out(f"const int {linear} = blockIdx.x * blockDim.x + threadIdx.x;")
            self.out(f"if ({linear} >= {' * '.join(bounds)})")
            self.out("    return;")
        for k, name in enumerate(names):
            if name == "_":
                continue  # an index the kernel discards (`i, _, _ = wp.tid()`)
            inner = " * ".join(bounds[k + 1:])
            c = linear if not inner else (f"{linear} / {inner}" if " * " not in inner else f"{linear} / ({inner})")
            if k > 0:
                c = f"{c} % {bounds[k]}"
            self.out(f"const int {name} = {c};")
        if lane and lane != "_":
            self.out(f"const int {lane} = threadIdx.x;")
        self.out("")
        self.shared_at = len(self.lines)
        for n in self.tid_names:
            if n != "_":
                self.scopes[0][n] = "int32"

    # ---- statements ----------------------------------------------------------------------------
    def merged_record_stores(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        """`if c: ...; a[i] = x` / `else: ...; a[i] = y` storing a record (a struct element) last in
        both branches, as `if c: ...; a_value = x` / `else: ...; a_value = y`, then `a[i] = a_value`.
        The same values reach the same element; one store instead of one per branch: a warp whose
        threads take both branches wrote each record twice, member by member, in two half-empty
        passes (1.54x slower on the H100 at bench size). Only where the index reads no name either
        branch assigns."""
        out = []
        for stmt in stmts:
            last = (stmt.body[-1], stmt.orelse[-1]) if isinstance(stmt, ast.If) and stmt.orelse else None
            if last and all(isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Subscript)
                             and isinstance(s.targets[0].value, ast.Name) for s in last) \
                    and ast.dump(last[0].targets[0]) == ast.dump(last[1].targets[0]):
                target = last[0].targets[0]
                arr = self.arrays.get(target.value.id)
                if arr is not None and isinstance(arr.dtype, StructType) and self.lookup(target.value.id) == arr \
                        and not _names_loaded([ast.Expr(target.slice)]) & _names_stored(stmt):
                    taken = {n.id for n in ast.walk(self.fn) if isinstance(n, ast.Name)} | set(self.arrays)
                    name, k = f"{target.value.id}_value", 2
                    while name in taken or self.lookup(name) is not None:
                        name, k = f"{target.value.id}_value{k}", k + 1
                    body = [*stmt.body[:-1], ast.copy_location(ast.Assign([ast.Name(name, ast.Store())], last[0].value), last[0])]
                    orelse = [*stmt.orelse[:-1], ast.copy_location(ast.Assign([ast.Name(name, ast.Store())], last[1].value), last[1])]
                    out.append(ast.copy_location(ast.If(stmt.test, body, orelse), stmt))
                    out.append(ast.copy_location(ast.Assign([target], ast.Name(name, ast.Load())), last[0]))
                    continue
            out.append(stmt)
        return out

    def emit_block(self, stmts: list[ast.stmt]) -> None:
        stmts = self.merged_record_stores(stmts)
        i = 0
        while i < len(stmts):
            stmt = stmts[i]
            self.tile_statement(stmt)
            self.forget_offsets(_names_stored(stmt))
            fused = self.fusable_consumers(stmts, i)
            if fused > 1:  # consecutive tile stores / atomic adds sharing one loop (tiles.py)
                i += self.fused_consumer_run(stmts[i:i + fused])
                continue
            if isinstance(stmt, (ast.If, ast.For, ast.While)):
                # A name first assigned inside the block but read after it must be declared before it.
                later = _names_loaded(stmts[i + 1:])
                hoisted = [n for n in sorted(_names_stored(stmt) & later)
                           if self.lookup(n) is None and n not in self.pending]
                for name in hoisted:
                    self.pending[name] = None
                start = len(self.lines)
                self.emit(stmt)
                decls = []
                for name in hoisted:  # each level declares only what it hoisted itself
                    t = self.pending.pop(name)
                    if t is not None:
                        decls.append("    " * self.indent + f"{self.module.ctype(t)} {name};")
                        self.scopes[-1][name] = t
                self.lines[start:start] = decls
            else:
                self.emit(stmt)
            i += 1

    def emit(self, node: ast.AST):
        method = getattr(self, f"emit_{type(node).__name__}", None)
        if method is None:
            raise self.unsupported(node, _describe(node))
        return method(node)

    def emit_Pass(self, node: ast.Pass) -> None:
        pass

    def emit_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # docstring
        if not isinstance(node.value, ast.Call):
            raise self.unsupported(node, "expression statement without effect")
        call = node.value
        if _is_wp_attr(call.func, *TILE_BUILTINS):
            code = self.call_tile_builtin(call, call.func.attr, statement=True).code
            if code:
                self.out(code + ";")
            return
        if (_is_wp_attr(call.func, *ATOMICS) and not call.keywords and len(call.args) >= 3
                and self.is_small_table(call.args[0]) and isinstance(self.emit(call.args[0]).type, ArrayType)
                and not self.is_private(call.args[0])):
            place = self.array_element(call, call.args[0], call.args[1:-1])
            self.out(self.atomic_call(call, call.func.attr, place, self.emit(call.args[-1]), True).code + ";")
            return
        self.out(self.emit(node.value).code + ";")

    def is_private(self, array: ast.AST) -> bool:
        """Whether `array` is a table counted per block in shared memory (`plan_private_tables`)."""
        return isinstance(array, ast.Name) and array.id in self.private

    def is_small_table(self, array: ast.AST) -> bool:
        """Whether `array` is a kernel parameter the caller declared a small fixed-size table."""
        return self.is_kernel and isinstance(array, ast.Name) and array.id in self.module.small_tables

    def emit_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) != 1:
            raise self.unsupported(node, "chained assignment")
        target = node.targets[0]
        if isinstance(node.value, ast.Call) and _is_wp_attr(node.value.func, "tid") and self.tid_value is None:
            if self.is_kernel and node in self.fn.body:
                return  # emitted up front by emit_thread_index
            raise self.unsupported(node, "wp.tid() in a @wp.func")
        if isinstance(target, ast.Name):
            produces_tile = isinstance(node.value, (ast.BinOp, ast.UnaryOp)) or (
                isinstance(node.value, ast.Call) and _is_wp_attr(node.value.func, *TILE_BUILTINS))
            if self.block_dim and produces_tile and target.id not in {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}:
                self.tile_dest = target.id  # a tile value may be written straight into the variable's buffer
            try:
                value = self.emit(node.value)
            finally:
                self.tile_dest = None
            if isinstance(value.type, TileType):
                self.assign_tile(node, target.id, value)
                return
            if self.is_tile_var(target.id):
                raise self.error(node, f"'{target.id}' is a tile; a value of type {value.type} is assigned to it")
            if isinstance(value.type, TupleType):
                raise self.unsupported(node, f"a tuple of {len(value.type.types)} values assigned to one name")
            if isinstance(value.type, LocalVectorType):
                self.assign_local_vector(node, target.id, value)
                return
            self.assign_name(node, target.id, value)
            return
        if isinstance(target, ast.Tuple):
            self.assign_tuple(node, target, node.value)
            return
        if isinstance(target, ast.Subscript):
            if isinstance(target.value, ast.Name) and self.is_tile_var(target.value.id):
                raise self.unsupported(target, "assignment to a tile element")
            if node in self.staged:
                self.emit_staged_store(node, self.staged[node])
                return
            value = self.emit(node.value)
            place = self.emit_Subscript(target, store=True)
            if isinstance(place, RowPlace):
                self.store_row(node, place, None, value)
                return
            self.check_same(node, place.type, value.type, "assignment")
            self.out(f"{place.code} = {value.code};")
            return
        if isinstance(target, ast.Attribute):
            base = self.emit(target.value)
            value = self.emit(node.value)
            place = self.member(target, base, target.attr)
            if isinstance(place.type, ArrayType):
                raise self.unsupported(target, "assignment to an array member")
            self.check_same(node, place.type, value.type, "assignment")
            self.out(f"{place.code} = {value.code};")
            return
        raise self.unsupported(target, "assignment to " + _describe(target))

    def assign_local_vector(self, node: ast.AST, name: str, value: CExpr) -> None:
        """`v = wp.types.vector(dtype=T, length=N)` (zeros) or `v = <another such vector>` (a copy):
        `v` is a local C array, declared where first assigned."""
        vt = value.type
        known = self.lookup(name)
        if known is None and name in self.pending:
            raise self.unsupported(node, f"a {vt} first assigned inside a block and used after it")
        if known is None:
            if name in self.module.info.module_names() or name in self.arrays:
                raise self.unsupported(node, f"assignment to '{name}'")
            self.scopes[-1][name] = vt
            self.out(f"{self.module.ctype(vt.dtype)} {name}[{vt.length}];")
        elif known != vt:
            raise self.error(node, f"'{name}' is a {known}; a {vt} is assigned to it")
        k = self.fresh("k")
        source = f"{value.code}[{k}]" if value.code else zero_of(vt.dtype)
        self.out(f"for (int {k} = 0; {k} < {vt.length}; ++{k})")
        self.out(f"    {name}[{k}] = {source};")

    def local_vector(self, node: ast.Call) -> CExpr:
        """`wp.types.vector(dtype=T, length=N)`: a vector of N zeros (its code is empty: assigned only)."""
        keywords = {k.arg: k.value for k in node.keywords}
        if node.args or set(keywords) != {"dtype", "length"}:
            raise self.unsupported(node, "wp.types.vector() other than `wp.types.vector(dtype=T, length=N)` (zeros)")
        dtype = self.annotation_type(keywords["dtype"])
        length = self.const_int(keywords["length"], "vector length")
        if dtype not in NUMERIC_TYPES or not 1 <= length <= 1024:
            raise self.unsupported(node, f"wp.types.vector of {length} {dtype}")
        return CExpr("", LocalVectorType(dtype, length))

    def assign_tuple(self, node: ast.Assign, target: ast.Tuple, value_node: ast.AST) -> None:
        """`a, b = x, y` (Python evaluates the right side first) or `a, b = helper(...)` (several results)."""
        if not all(isinstance(t, ast.Name) for t in target.elts):
            raise self.unsupported(target, "assignment to tuple of anything but names")
        names = [t.id for t in target.elts]
        if isinstance(value_node, ast.Tuple):
            if len(value_node.elts) != len(names):
                raise self.error(node, f"{len(value_node.elts)} values assigned to {len(names)} names")
            values = [self.emit(v) for v in value_node.elts]
            for v, src in zip(values, value_node.elts):
                if isinstance(v.type, LocalVectorType):
                    raise self.unsupported(src, f"a {v.type} in a tuple assignment")
            read = {n.id for n in ast.walk(value_node) if isinstance(n, ast.Name)}
            if read & set(names):  # a swap: evaluate every value before assigning any
                temps = []
                for k, v in enumerate(values):
                    tmp = self.fresh(f"{names[k]}_new")
                    self.out(f"const {self.module.ctype(v.type)} {tmp} = {v.code};")
                    temps.append(CExpr(tmp, v.type))
                values = temps
            for name, v in zip(names, values):
                self.assign_name(node, name, v)
            return
        value = self.emit(value_node)
        if not isinstance(value.type, TupleType) or len(value.type.types) != len(names):
            raise self.error(node, f"{len(names)} names assigned from a value of type {value.type}")
        tmp = self.fresh("result")
        self.out(f"const {value.type.name} {tmp} = {value.code};")
        for k, (name, t) in enumerate(zip(names, value.type.types)):
            self.assign_name(node, name, CExpr(f"{tmp}.v{k}", t))

    def assign_tile(self, node: ast.AST, name: str, value: CExpr) -> None:
        if self.lookup(name) is not None or name in self.arrays or name in self.module.info.constants:
            raise self.error(node, f"a tile assigned to '{name}', which holds a value of type {self.lookup(name)}")
        self.assign_tile_var(node, name, value)

    def names_in_function(self) -> set[str]:
        return {n.id for n in ast.walk(self.fn) if isinstance(n, ast.Name)} | {a.arg for a in ast.walk(self.fn) if isinstance(a, ast.arg)}

    def fresh_plain(self, base: str) -> str:
        """`base` itself where nothing in the function is named so, else `fresh(base)`."""
        if base in self.names_in_function() or base in self.fresh_names:
            return self.fresh(base)
        self.fresh_names.add(base)
        return base

    def fresh(self, base: str) -> str:
        """A local name used nowhere in the function (nor by the module's names)."""
        taken = self.names_in_function()
        k = 0
        while f"{base}{k}" in taken or f"{base}{k}" in self.fresh_names:
            k += 1
        self.fresh_names.add(f"{base}{k}")
        return f"{base}{k}"

    def assign_name(self, node: ast.AST, name: str, value: CExpr) -> None:
        if name in self.arrays:
            raise self.unsupported(node, f"assignment to array parameter '{name}'")
        if isinstance(value.type, ArrayType):
            raise self.unsupported(node, "array-valued local variable")
        if isinstance(value.type, LocalVectorType):
            raise self.unsupported(node, f"a {value.type} assigned here (only `name = vector` is translated)")
        known = self.lookup(name)
        if known is None and name in self.pending:
            if self.pending[name] is None:
                self.pending[name] = value.type
            known = self.pending[name]
            self.check_same(node, known, value.type, f"assignment to '{name}'")
            self.out(f"{name} = {value.code};")
            return
        if known is None:
            if name in self.module.info.constants or name in self.module.info.funcs:
                raise self.unsupported(node, f"assignment to module-level name '{name}'")
            self.scopes[-1][name] = value.type
            self.out(f"{self.module.ctype(value.type)} {name} = {value.code};")
            return
        if name in self.tid_names:
            raise self.unsupported(node, f"assignment to thread index '{name}'")
        self.check_same(node, known, value.type, f"assignment to '{name}'")
        self.out(f"{name} = {value.code};")

    def emit_AugAssign(self, node: ast.AugAssign) -> None:
        target = node.target
        if isinstance(target, ast.Name) and self.is_tile_var(target.id):
            tile = self.emit(target)
            self.assign_tile_var(node, target.id, self.tile_binary(node, node.op, tile, self.emit(node.value)))
            return
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and self.is_tile_var(target.value.id):
            raise self.unsupported(target, "in-place update of a tile element")
        value = self.emit(node.value)
        if isinstance(node.op, (ast.Add, ast.Sub)) and self.in_array_element(target):
            # a member of an array's element (`a[i].f += x`, `a[i].v[k] -= y`): Warp adds atomically too
            op = {ast.Add: "atomic_add", ast.Sub: "atomic_sub"}[type(node.op)]
            place = self.emit_Subscript(target, store=True) if isinstance(target, ast.Subscript) else self.emit(target)
            if isinstance(place, RowPlace):
                raise self.unsupported(target, "in-place update of a matrix row inside an array element")
            self.out(self.atomic_call(node, op, place, value).code + ";")
            return
        if isinstance(target, ast.Subscript) and isinstance(self.emit(target.value).type, ArrayType):
            # Warp makes `a[i] += v`, `a[i] -= v` and the bitwise `|=`, `&=`, `^=` atomic
            op = AUGMENTED_ATOMICS.get(type(node.op))
            place = self.emit_Subscript(target)
            if op is None and isinstance(node.op, (ast.Mult, ast.Div)):
                # other operators: Warp loads, applies the operator and stores (not atomic)
                combined = self.binary(node, node.op, place, value)
                self.check_same(node, place.type, combined.type, "in-place update")
                self.out(self.compound_store(node, place, value, combined))
                return
            if op is None:
                raise self.unsupported(node, f"in-place '{_OPS[type(node.op)]}=' on an array element")
            aggregate = self.is_small_table(target.value) and not self.is_private(target.value)
            self.out(self.atomic_call(node, op, place, value, aggregate).code + ";")
            return
        if isinstance(target, ast.Name):
            current = self.lookup(target.id)
            if current is None:  # a name hoisted out of its block is typed by its first assignment
                current = self.pending.get(target.id)
            if current is None:
                raise self.error(target, f"'{target.id}' is used before assignment")
            combined = self.binary(node, node.op, CExpr(target.id, current), value)
            self.check_same(node, current, combined.type, f"in-place update of '{target.id}'")
            if isinstance(current, str) and current in ("float32", "float64", "int32") \
                    and type(node.op) in (ast.Add, ast.Sub, ast.Mult, ast.Div) \
                    and not (current == "int32" and isinstance(node.op, ast.Div)):
                self.out(f"{target.id} {_OPS[type(node.op)]}= {value.code};")
            else:
                self.out(f"{target.id} = {combined.code};")
            return
        if isinstance(target, (ast.Subscript, ast.Attribute)):
            place = self.emit_Subscript(target, store=True) if isinstance(target, ast.Subscript) else self.emit(target)
            if isinstance(place, RowPlace):
                self.store_row(node, place, node.op, value)
                return
            combined = self.binary(node, node.op, place, value)
            self.check_same(node, place.type, combined.type, "in-place update")
            self.out(self.compound_store(node, place, value, combined))
            return
        raise self.unsupported(target, "in-place update of " + _describe(target))

    def in_array_element(self, target: ast.AST) -> bool:
        """Whether `target` is a part of an array element: a component (`a[i].x`, `a[i][k]`, `m[i][r, c]`),
        a record's member (`a[i].f`) or a member's component (`a[i].f[k]`)."""
        node = target
        while isinstance(node, (ast.Subscript, ast.Attribute)):
            inner = node.value
            if isinstance(inner, ast.Subscript) and isinstance(inner.value, (ast.Name, ast.Attribute)) \
                    and isinstance(self.emit(inner.value).type, ArrayType):
                return True
            node = inner
        return False

    def store_row(self, node: ast.AST, place: RowPlace, op: ast.operator | None, value: CExpr) -> None:
        """`m[r] = v`, and `m[r] op= x` as `m[r] = m[r] op x` (Warp updates the row's components)."""
        vec = f"vec{place.n}"
        if op is not None:
            self.module.need(f"get_row:{place.n}")
            current = CExpr(f"get_row({place.matrix}, {place.row})", vec)
            value = self.binary(node, op, current, value)
        self.check_same(node, vec, value.type, "assignment to a matrix row")
        self.module.need(f"set_row:{place.n}")
        self.out(f"set_row({place.matrix}, {place.row}, {value.code});")

    def compound_store(self, node: ast.AugAssign, place: CExpr, value: CExpr, combined: CExpr) -> str:
        """`place op= value;` where C's compound assignment computes exactly `place = place op value`
        (a float or int element and + - * /, int / excepted: Warp's rounds toward zero like C's, but
        through its own helper), so the element's index is written once; otherwise the expansion."""
        if place.type in ("float32", "float64", "int32") and type(node.op) in (ast.Add, ast.Sub, ast.Mult, ast.Div) \
                and not (place.type == "int32" and isinstance(node.op, ast.Div)) \
                and combined.code == self.binary(node, node.op, CExpr(place.code, place.type), value).code \
                and value.type == place.type:
            return f"{place.code} {_OPS[type(node.op)]}= {value.code};"
        return f"{place.code} = {combined.code};"

    def emit_If(self, node: ast.If, chained: bool = False) -> None:
        if not chained:
            self.tile_enter(node)  # tiles the branches assign get buffers of their own (tiles.py)
        cond = self.statement_free("in an elif condition", self.condition, node.test) if chained else self.condition(node.test)
        self.out(f"{'} else if' if chained else 'if'} ({cond.code}) {{")
        saved = self.body_enter(loop=False)
        self.nested(node.body)
        ends = [self.body_exit(saved, loop=False)]
        orelse = node.orelse
        saved = self.body_enter(loop=False)
        if len(orelse) == 1 and isinstance(orelse[0], ast.If):
            self.emit_If(orelse[0], chained=True)
        else:
            if orelse:
                self.out("} else {")
                self.nested(orelse)
            self.out("}")
        ends.append(self.body_exit(saved, loop=False))
        self.branches_joined(ends)
        if not chained:
            self.tile_exit(node)

    def statement_free(self, reason: str, fn, *args):
        """fn(*args) with statements before the current expression refused (see `no_statements`)."""
        saved, self.no_statements = self.no_statements, reason
        try:
            return fn(*args)
        finally:
            self.no_statements = saved

    def nested(self, body: list[ast.stmt]) -> None:
        self.indent += 1
        self.scopes.append({})
        try:
            self.emit_block(body)
        finally:
            self.scopes.pop()
            self.indent -= 1

    def condition(self, test: ast.AST) -> CExpr:
        cond = self.emit(test)
        if isinstance(cond.type, ArrayType):  # `if arr:` is Warp's test for an array that is not None
            return CExpr(f"{cond.code} != nullptr", "bool", P_EQ)
        if cond.type not in ("bool", *NUMERIC_TYPES):
            raise self.unsupported(test, f"condition of type {cond.type}")
        return cond

    def emit_While(self, node: ast.While) -> None:
        if node.orelse:
            raise self.unsupported(node, "while ... else")
        self.tile_enter(node)
        cond = self.statement_free("in a while condition", self.condition, node.test)
        self.out(f"while ({cond.code}) {{")
        iterating = any(isinstance(n, ast.Call) and _is_wp_attr(n.func, *ITERATING_QUERY_NEXT) for n in ast.walk(node.test))
        self.loop_depth += 1
        self.query_loops += iterating
        saved = self.body_enter(loop=True, body_indent=self.indent + 1, stored=_names_stored(node))
        self.nested(node.body)
        self.indent += 1
        self.body_exit(saved, loop=True, while_test=node.test)
        self.indent -= 1
        self.query_loops -= iterating
        self.loop_depth -= 1
        self.out("}")
        self.tile_exit(node)

    def emit_For(self, node: ast.For) -> None:
        if node.orelse:
            raise self.unsupported(node, "for ... else")
        if not isinstance(node.target, ast.Name):
            raise self.unsupported(node.target, "for-loop target other than a name")
        it = node.iter
        if (isinstance(it, ast.Call) and _is_wp_attr(it.func, "hash_grid_query", "mesh_query_aabb")) or (
                isinstance(it, ast.Name) and self.lookup(it.id) in QUERY_NEXT):
            self.emit_query_loop(node)
            return
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and 1 <= len(it.args) <= 3 and not it.keywords):
            raise self.unsupported(it, "for-loop over anything but range(...), a hash grid query or a mesh box query "
                                       "(Warp iterates no BVH query: `while wp.bvh_query_next(query, j)`)")
        self.tile_enter(node)  # tiles the body assigns and that outlive it get buffers of their own (tiles.py)
        args = [self.emit(a) for a in it.args]
        for a, src in zip(args, it.args):
            if a.type != "int32":
                raise self.error(src, f"range() argument of type {a.type}; Warp requires int")
        start, stop, step = (CExpr("0", "int32", literal=0), args[0], CExpr("1", "int32", literal=1)) if len(args) == 1 else (
            (args[0], args[1], CExpr("1", "int32", literal=1)) if len(args) == 2 else tuple(args))
        var = node.target.id
        if self.lookup(var) is not None and self.lookup(var) != "int32":
            raise self.error(node.target, f"loop variable '{var}' already has type {self.lookup(var)}")
        static = any(_is_static_call(a) for a in it.args)
        if static and not all(a.literal is not None for a in args):
            raise self.unsupported(it, "range() mixing wp.static bounds with bounds known only at run time")
        # Python evaluates range() once: a bound the body may change (a local it assigns, an element
        # of an array it writes: `for k in range(counts[i]): counts[i] -= 1`) is copied first.
        stored, written = _names_stored(node), self.module.written_arrays(self.fn, within=node)
        def fixed(e: CExpr, src: ast.AST, label: str) -> CExpr:
            names = {n.id for n in ast.walk(src) if isinstance(n, ast.Name)}
            read = {_array_key(n.value) for n in ast.walk(src) if isinstance(n, ast.Subscript)}
            if e.literal is not None or not (names & stored or read & written
                                             or any(isinstance(n, ast.Call) for n in ast.walk(src))):
                return e
            tmp = f"{var}_{label}"
            self.out(f"const int {tmp} = {e.code};")
            return CExpr(tmp, "int32")
        stop = fixed(stop, it.args[1] if len(it.args) > 1 else it.args[0], "end")
        if len(it.args) == 3:
            step = fixed(step, it.args[2], "step")
        if step.literal is not None:
            if step.literal == 0:
                raise self.error(it, "range() step must not be zero")
            cmp = "<" if step.literal > 0 else ">"
            test = f"{var} {cmp} {stop.at(P_REL)}"
            incr = f"++{var}" if step.literal == 1 else (f"--{var}" if step.literal == -1 else
                   (f"{var} += {step.literal}" if step.literal > 0 else f"{var} -= {-step.literal}"))
        else:
            test = f"({step.at(P_REL)} > 0) ? ({var} < {stop.at(P_REL)}) : ({var} > {stop.at(P_REL)})"
            incr = f"{var} += {step.at(P_ATOM)}"
        if static:  # Warp unrolls a loop whose bounds wp.static fixes; so does nvcc, asked to
            self.out("#pragma unroll")
            self.static_loop_vars.add(var)
        elif _unrolled_by_warp((start.literal, stop.literal, step.literal), node.body):
            # Warp writes out a loop over literal bounds of at most max_unroll trips without a break
            # (Adjoint.get_unroll_range), so nvcc can schedule its iterations' loads together; left
            # to nvcc, an outer loop whose inner trip count varies stayed a loop: a triangular pair
            # loop over a row of 8 ran at 0.63x Warp's speed, 1.20x with the pragma (H200, session
            # 50). A bound that is a module constant (Warp unrolls those too) is left to nvcc, which
            # knows its value as well: asked to unroll, particle gathers over K neighbours ran 0-2% slower.
            self.out("#pragma unroll")
        self.out(f"for (int {var} = {start.code}; {test}; {incr}) {{")
        try:
            self.emit_loop_body(node, {var: "int32"})
        finally:
            if static:
                self.static_loop_vars.discard(var)

    def emit_loop_body(self, node: ast.For, scope: dict) -> None:
        """A loop's body after its opening line (`for (...) {`, `while (...) {`), with `scope` its own
        names, then the closing brace."""
        self.loop_depth += 1
        self.indent += 1
        self.scopes.append(scope)
        saved = self.body_enter(loop=True, stored=_names_stored(node))
        try:
            self.emit_block(node.body)
        finally:
            self.scopes.pop()
            self.indent -= 1
            self.loop_depth -= 1
        self.body_exit(saved, loop=True)
        self.out("}")
        self.tile_exit(node)

    def emit_query_loop(self, node: ast.For) -> None:
        """`for j in wp.hash_grid_query(grid, p, r):` (or a mesh box query), or over a query held in a
        local: a while loop whose condition advances the query (hash_grid_query_next,
        mesh_query_aabb_next, as Warp's iterator does), so `continue` moves on to the next item. The loop
        variable is an int declared before the loop (Python keeps it after); a query held in a local is
        advanced in place, as Warp advances it."""
        self.tile_enter(node)
        var = node.target.id
        if isinstance(node.iter, ast.Name):
            held = self.emit(node.iter)
            query, kind = held.code, held.type
        else:
            call = self.emit(node.iter)
            query, kind = self.fresh("query"), call.type
            if kind == HASH_GRID_QUERY:
                self.out(f"// {var}: every point of the cells the query's box touches (no distance test), in Warp's order:")
                self.out("// a cell's points by index, cells x fastest, then y, then z")
            self.out(f"{self.module.ctype(call.type)} {query} = {call.code};")
        advance, snippet = QUERY_NEXT[kind]
        self.module.need(snippet)
        known = self.lookup(var) or self.pending.get(var)
        if var in self.tid_names:
            raise self.unsupported(node.target, f"assignment to thread index '{var}'")
        if known is None and var in self.pending:  # declared before the enclosing block: typed here
            self.pending[var] = "int32"
        elif known is None:
            self.assign_name(node.target, var, CExpr("0", "int32", literal=0))
        else:
            self.check_same(node.target, known, "int32", f"loop variable '{var}'")
        self.out(f"while ({advance}({query}, {var})) {{")
        iterating = kind != HASH_GRID_QUERY
        self.query_loops += iterating
        try:
            self.emit_loop_body(node, {})
        finally:
            self.query_loops -= iterating

    def emit_Break(self, node: ast.Break) -> None:
        self.out("break;")

    def emit_Continue(self, node: ast.Continue) -> None:
        self.out("continue;")

    def emit_Return(self, node: ast.Return) -> None:
        if self.is_kernel:
            if node.value is not None:
                raise self.error(node, "a kernel cannot return a value")
            self.out("return;")
            return
        if node.value is None:
            if self.return_type is not None:
                raise self.error(node, "missing return value")
            self.out("return;")
            return
        if isinstance(node.value, ast.Tuple):
            values = [self.emit(v) for v in node.value.elts]
            for v, src in zip(values, node.value.elts):
                if isinstance(v.type, LocalVectorType):
                    raise self.unsupported(src, f"returning a {v.type} from a @wp.func")
            if self.return_type is None:
                self.return_type = self.module.tuple_type(self.fn.name, tuple(v.type for v in values))
            if not isinstance(self.return_type, TupleType) or self.return_type.types != tuple(v.type for v in values):
                raise self.error(node, f"return value: types {[v.type for v in values]} where {self.return_type} is expected")
            self.out(f"return {self.return_type.name}{{{', '.join(v.code for v in values)}}};")
            return
        value = self.emit(node.value)
        if isinstance(value.type, LocalVectorType):
            raise self.unsupported(node.value, f"returning a {value.type} from a @wp.func")
        if self.return_type is None:
            self.return_type = value.type
        self.check_same(node, self.return_type, value.type, "return value")
        self.out(f"return {value.code};")

    # ---- expressions ---------------------------------------------------------------------------
    def emit_Constant(self, node: ast.Constant) -> CExpr:
        v = node.value
        if isinstance(v, bool):
            return CExpr("true" if v else "false", "bool", literal=v)
        if isinstance(v, int):
            if not -2**31 <= v < 2**31:
                raise self.unsupported(node, "integer literal outside int32")
            return CExpr(str(v), "int32", P_ATOM if v >= 0 else P_UNARY, literal=v)
        if isinstance(v, float):
            try:
                return CExpr(float_literal(v), "float32", literal=v)
            except ValueError:
                raise self.unsupported(node, "non-finite float literal") from None
        raise self.unsupported(node, f"{type(v).__name__} constant")

    def emit_Name(self, node: ast.Name) -> CExpr:
        if node.id in self.tile_vars:
            return self.tile_var(node.id)
        t = self.lookup(node.id)
        if t is None and node.id in self.pending and self.pending[node.id] is not None:
            t = self.pending[node.id]
        if t is not None:
            return CExpr(node.id, t)
        if node.id in self.module.info.constants:
            t, _ = self.module.info.constants[node.id]
            self.module.constants_used.add(node.id)
            return CExpr(self.module.global_c_name(node.id), t)
        if node.id in self.module.info.vector_constants:
            t, _ = self.module.info.vector_constants[node.id]
            self.module.constants_used.add(node.id)
            return CExpr(self.module.global_c_name(node.id), t)
        if node.id in ("True", "False"):
            return CExpr(node.id.lower(), "bool")
        raise self.error(node, f"unknown name '{node.id}'")

    def emit_Attribute(self, node: ast.Attribute) -> CExpr:
        if isinstance(node.value, ast.Name) and node.value.id == "wp" and node.attr in builtins.CONSTANTS:
            return builtins.CONSTANTS[node.attr]
        if isinstance(node.value, ast.Name) and node.value.id == "wp":
            raise self.unsupported(node, f"wp.{node.attr} here")
        base = self.emit(node.value)
        return self.member(node, base, node.attr)

    def member(self, node: ast.AST, base: CExpr, attr: str) -> CExpr:
        """`base.attr`: a vector or quat component, a transform's p or q, a struct member."""
        if (is_vec(base.type) and attr in COMPONENTS[: VEC_LEN[base.type]]) or (is_quat(base.type) and attr in "xyzw"):
            return CExpr(f"{base.at(P_ATOM)}.{attr}", "float32")
        if base.type in VECD_LEN and attr in COMPONENTS[: VECD_LEN[base.type]]:
            return CExpr(f"{base.at(P_ATOM)}.{attr}", "float64")
        if is_transform(base.type) and attr in ("p", "q"):
            return CExpr(f"{base.at(P_ATOM)}.{attr}", "vec3" if attr == "p" else "quat")
        if isinstance(base.type, StructType) and base.type.field(attr) is not None:
            return CExpr(f"{base.at(P_ATOM)}.{base.type.c_member(attr)}", base.type.field(attr))
        if isinstance(base.type, ArrayType) and attr == "shape":
            raise self.unsupported(node, "array .shape other than .shape[k] with a literal k")
        type_name = base.type.name if isinstance(base.type, StructType) else base.type
        if isinstance(type_name, ArrayType):
            type_name = f"array of {type_name.dtype}"
        raise self.unsupported(node, f"attribute '.{attr}' of {type_name}")

    def emit_Subscript(self, node: ast.Subscript, store: bool = False) -> CExpr | RowPlace:
        """The element `node` reads; with `store`, the element it assigns to (a C lvalue, or a
        RowPlace for a matrix row)."""
        index_nodes = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if any(isinstance(i, ast.Slice) for i in index_nodes):
            raise self.unsupported(node, "slicing")
        # m[i][j] on a matrix
        if isinstance(node.value, ast.Subscript):
            inner_base = self.emit(node.value.value)
            if is_mat(inner_base.type) and not isinstance(node.value.slice, ast.Tuple) and len(index_nodes) == 1:
                i = self.int_index(node.value.slice)
                j = self.int_index(index_nodes[0])
                return CExpr(f"{inner_base.at(P_ATOM)}.m[{i.code}][{j.code}]", "float32")
        if isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
            arr = self.emit(node.value.value)
            if isinstance(arr.type, ArrayType):
                k = self.emit(node.slice)
                if not (isinstance(k.literal, int) and not isinstance(k.literal, bool) and 0 <= k.literal < arr.type.ndim):
                    raise self.unsupported(node, f".shape[k] of a {arr.type.ndim}-D array with k other than a literal 0..{arr.type.ndim - 1}")
                return CExpr(f"{arr.code}_dim{k.literal}", "int32")
        base = self.emit(node.value)
        if isinstance(base.type, TileType):  # an element of a tile (in shared memory: every thread reads it)
            shape = base.type.shape
            if len(index_nodes) != len(shape):
                raise self.unsupported(node, f"indexing a {len(shape)}-D tile with {len(index_nodes)} indices")
            flat = self.tile_flat_index([self.int_index(i) for i in index_nodes], shape)
            return self.tile_element(node, base, flat.code)
        if isinstance(base.type, LocalVectorType):  # a component of a local vector (a C array)
            if len(index_nodes) != 1:
                raise self.unsupported(node, f"indexing a {base.type} with {len(index_nodes)} indices")
            return CExpr(f"{base.code}[{self.int_index(index_nodes[0]).code}]", base.type.dtype)
        if isinstance(base.type, ArrayType):
            arr = base.type
            if len(index_nodes) != arr.ndim:
                raise self.unsupported(node, f"indexing a {arr.ndim}-D array with {len(index_nodes)} indices (array views)")
            idx = [self.int_index(i) for i in index_nodes]
            flat = idx[0]
            for k in range(1, arr.ndim):  # row-major: ((i * dim1) + j) * dim2 + k
                flat = CExpr(f"{flat.at(P_MUL)} * {base.code}_dim{k} + {idx[k].at(P_ADD + 1)}", "int32", P_ADD)
            flat = flat.code
            if isinstance(node.value, ast.Name) and node.value.id in self.private:  # an update: in the block's copy
                return CExpr(f"{self.private[node.value.id]}[{flat}]", arr.dtype)
            return CExpr(f"{base.code}[{flat}]", arr.dtype)
        if is_vec(base.type):
            if len(index_nodes) != 1:
                raise self.unsupported(node, "multi-index into a vector")
            i = self.int_index(index_nodes[0])
            n = VEC_LEN[base.type]
            if i.literal is not None:
                if not 0 <= i.literal < n:
                    raise self.error(node, f"index {i.literal} out of range for {base.type}")
                return CExpr(f"{base.at(P_ATOM)}.{COMPONENTS[i.literal]}", "float32")
            if store:
                self.module.need(f"vcomp_ref:{n}")
                return CExpr(f"component_ref({base.code}, {i.code})", "float32")
            self.module.need(f"vcomp:{n}")
            return CExpr(f"component({base.code}, {i.code})", "float32")
        if is_mat(base.type):
            n = MAT_DIM[base.type]
            if len(index_nodes) == 2:
                i, j = (self.int_index(x) for x in index_nodes)
                return CExpr(f"{base.at(P_ATOM)}.m[{i.code}][{j.code}]", "float32")
            i = self.int_index(index_nodes[0])
            if store:
                return RowPlace(base.code, i.code, n)
            self.module.need(f"get_row:{n}")
            return CExpr(f"get_row({base.code}, {i.code})", f"vec{n}")
        if base.type in VECD_LEN and len(index_nodes) == 1:
            i = self.int_index(index_nodes[0])
            if i.literal is None or not 0 <= i.literal < VECD_LEN[base.type]:
                raise self.unsupported(node, f"{base.type} component index other than a literal")
            return CExpr(f"{base.at(P_ATOM)}.{COMPONENTS[i.literal]}", "float64")
        if base.type in MATD_DIM and len(index_nodes) == 2:
            i, j = (self.int_index(x) for x in index_nodes)
            return CExpr(f"{base.at(P_ATOM)}.m[{i.code}][{j.code}]", "float64")
        if is_quat(base.type) and len(index_nodes) == 1:
            i = self.int_index(index_nodes[0])
            if i.literal is None or not 0 <= i.literal < 4:
                raise self.unsupported(node, "quat component index other than a literal 0..3")
            return CExpr(f"{base.at(P_ATOM)}.{'xyzw'[i.literal]}", "float32")
        raise self.unsupported(node, f"indexing a value of type {base.type}")

    def int_index(self, node: ast.AST) -> CExpr:
        e = self.emit(node)
        if e.type != "int32":
            raise self.error(node, f"index of type {e.type}; Warp requires int")
        return e

    def emit_UnaryOp(self, node: ast.UnaryOp) -> CExpr:
        dest = self.claim_dest()
        v = self.emit(node.operand)
        if isinstance(v.type, TileType):
            if not isinstance(node.op, ast.USub):
                raise self.unsupported(node, f"operator {type(node.op).__name__} on a tile")
            self.tile_dest = dest
            return self.tile_negate(node, v)
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(node.op, ast.Not):
            return CExpr(f"!{v.at(P_UNARY)}", "bool", P_UNARY)
        if isinstance(node.op, ast.Invert):
            if v.type not in INT_TYPES:
                raise self.error(node, f"~ on {v.type}")
            return CExpr(f"~{v.at(P_UNARY)}", v.type, P_UNARY)
        if is_vec(v.type):
            self.module.need(f"vneg:{VEC_LEN[v.type]}")
        elif is_mat(v.type):
            self.module.need(f"mneg:{MAT_DIM[v.type]}")
        elif is_quat(v.type):
            self.module.need("qneg")
        elif v.type in ("int8", "int16", "int64"):  # Warp's neg: in int, narrowed back (-(-128) is -128 in int8)
            return CExpr(f"-{v.at(P_UNARY)}", v.type, P_UNARY) if v.type == "int64" else \
                CExpr(f"({ctype(v.type)})(-{v.at(P_UNARY)})", v.type, P_UNARY)
        elif v.type not in ("float32", "float64", "int32"):
            raise self.unsupported(node, f"unary minus on {v.type}")
        return negate(v)

    def emit_BinOp(self, node: ast.BinOp) -> CExpr:
        dest = self.claim_dest()
        left, right = self.emit(node.left), self.emit(node.right)
        if isinstance(left.type, TileType) or isinstance(right.type, TileType):
            return self.tile_binary(node, node.op, left, right, dest)
        return self.binary(node, node.op, left, right)

    def binary(self, node: ast.AST, op: ast.operator, a: CExpr, b: CExpr) -> CExpr:
        ta, tb = a.type, b.type
        if isinstance(ta, TileType) or isinstance(tb, TileType):
            raise self.unsupported(node, f"operator on {ta} and {tb}")
        opname = type(op)
        sym = _OPS.get(opname)
        if sym is None:
            raise self.unsupported(node, f"operator {type(op).__name__}")
        if ta in ("float32", "float64", "int32", "uint32") and ta == tb:
            if opname is ast.Mod and ta in ("float32", "float64"):
                return CExpr(f"{'fmodf' if ta == 'float32' else 'fmod'}({a.code}, {b.code})", ta)
            if opname is ast.FloorDiv:
                if ta in ("float32", "float64"):
                    return CExpr(f"{'floorf' if ta == 'float32' else 'floor'}({a.at(P_MUL)} / {b.at(P_MUL + 1)})", ta)
                if ta == "uint32":  # unsigned: the C quotient is the floor
                    return CExpr(f"{a.at(P_MUL)} / {b.at(P_MUL + 1)}", ta, P_MUL)
                self.module.need("floordiv")
                return CExpr(f"floordiv({a.code}, {b.code})", ta)
            if opname is ast.Pow:
                if ta not in ("float32", "float64"):
                    raise self.unsupported(node, "integer power")
                return CExpr(f"{'powf' if ta == 'float32' else 'pow'}({a.code}, {b.code})", ta)
            if opname in (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift) and ta not in INT_TYPES:
                raise self.error(node, f"bitwise operator on {ta}")
            if opname is ast.MatMult:
                raise self.error(node, "@ on scalars")
            prec = _PREC[opname]
            if prec in _BIT_PRECS:  # written as people write them: `(h ^ 61u) ^ (h >> 16u)`, `(v * 9u) & m`
                left = a.code if a.prec >= P_UNARY or a.prec == prec and prec != P_SHIFT else f"({a.code})"
                return CExpr(f"{left} {sym} {b.code if b.prec >= P_UNARY else f'({b.code})'}", ta, prec)
            return CExpr(f"{a.at(prec)} {sym} {b.at(prec + 1)}", ta, prec)
        if ta == tb and ta in STORAGE_INT_TYPES and opname is ast.FloorDiv:
            # Warp's floordiv (builtin.h): the C quotient for unsigned types, rounded toward negative
            # infinity for signed ones; int8/int16 computed in int and narrowed back (-128 // -1 is -128)
            if ta.startswith("u"):
                return CExpr(f"({ctype(ta)})({a.at(P_MUL)} / {b.at(P_MUL + 1)})", ta, P_UNARY)
            if ta == "int64":
                self.module.need("floordiv64")
                return CExpr(f"floordiv({a.code}, {b.code})", ta)
            self.module.need("floordiv")
            return CExpr(f"({ctype(ta)})floordiv({a.code}, {b.code})", ta, P_UNARY)
        if ta == tb and ta in STORAGE_INT_TYPES and opname in _STORAGE_INT_OPS:
            # Warp's int8/uint8/int64 operators (builtin.h): C's, in int for the narrow types, the result
            # narrowed back to the type (int8 100 + 100 is -56 in Warp, as here)
            prec = _PREC[opname]
            expr = f"{a.at(prec)} {sym} {b.at(prec + 1)}"
            return CExpr(expr, ta, prec) if ta == "int64" else CExpr(f"({ctype(ta)})({expr})", ta, P_UNARY)
        if ta == tb and ta in HALF_CONVERSIONS and opname in (ast.Add, ast.Sub, ast.Mult, ast.Div):
            # Warp's half and bfloat16 arithmetic: in float, rounded back (exact for one operation)
            to_float, from_float = HALF_CONVERSIONS[ta][:2]
            expr = f"{to_float}({a.code}) {sym} {to_float}({b.code})"
            return CExpr(f"{from_float}({expr})", ta)
        if {ta, tb} <= set(NUMERIC_TYPES) and ta != tb:
            raise self.error(node, f"operands of '{sym}' have types {ta} and {tb}; Warp requires matching types")
        # vectors
        if is_vec(ta) and ta == tb and opname in (ast.Add, ast.Sub):
            self.module.need(f"{'vadd' if opname is ast.Add else 'vsub'}:{VEC_LEN[ta]}")
            return CExpr(f"{a.at(P_ADD)} {sym} {b.at(P_ADD + 1)}", ta, P_ADD)
        if opname is ast.Mult and ((is_vec(ta) and tb == "float32") or (ta == "float32" and is_vec(tb))):
            vt = ta if is_vec(ta) else tb
            self.module.need(f"vscale:{VEC_LEN[vt]}")
            return CExpr(f"{a.at(P_MUL)} * {b.at(P_MUL + 1)}", vt, P_MUL)
        if opname is ast.Div and is_vec(ta) and tb == "float32":
            self.module.need(f"vdiv:{VEC_LEN[ta]}")
            return CExpr(f"{a.at(P_MUL)} / {b.at(P_MUL + 1)}", ta, P_MUL)
        # matrices
        if is_mat(ta) and ta == tb and opname in (ast.Add, ast.Sub):
            self.module.need(f"{'madd' if opname is ast.Add else 'msub'}:{MAT_DIM[ta]}")
            return CExpr(f"{a.at(P_ADD)} {sym} {b.at(P_ADD + 1)}", ta, P_ADD)
        if opname in (ast.Mult, ast.MatMult) and is_mat(ta) and ta == tb:
            self.module.need(f"matmul:{MAT_DIM[ta]}")
            return CExpr(f"{a.at(P_MUL)} * {b.at(P_MUL + 1)}", ta, P_MUL)
        if opname in (ast.Mult, ast.MatMult) and is_mat(ta) and is_vec(tb) and VEC_LEN[tb] == MAT_DIM[ta]:
            self.module.need(f"matvec:{MAT_DIM[ta]}")
            return CExpr(f"{a.at(P_MUL)} * {b.at(P_MUL + 1)}", tb, P_MUL)
        if opname in (ast.Mult, ast.MatMult) and is_vec(ta) and is_mat(tb) and VEC_LEN[ta] == MAT_DIM[tb]:
            self.module.need(f"vecmat:{MAT_DIM[tb]}")
            return CExpr(f"{a.at(P_MUL)} * {b.at(P_MUL + 1)}", ta, P_MUL)
        if opname is ast.Mult and ((is_mat(ta) and tb == "float32") or (ta == "float32" and is_mat(tb))):
            mt = ta if is_mat(ta) else tb
            self.module.need(f"mscale:{MAT_DIM[mt]}")
            return CExpr(f"{a.at(P_MUL)} * {b.at(P_MUL + 1)}", mt, P_MUL)
        # quaternions and transforms (quat.h, spatial.h)
        if is_quat(ta) and ta == tb and opname in (ast.Add, ast.Sub):
            self.module.need("qadd" if opname is ast.Add else "qsub")
            return CExpr(f"{a.at(P_ADD)} {sym} {b.at(P_ADD + 1)}", ta, P_ADD)
        if is_quat(ta) and ta == tb and opname is ast.Mult:
            self.module.need("qmul")
            return CExpr(f"{a.at(P_MUL)} * {b.at(P_MUL + 1)}", ta, P_MUL)
        if opname is ast.Mult and ((is_quat(ta) and tb == "float32") or (ta == "float32" and is_quat(tb))):
            self.module.need("qscale")
            return CExpr(f"{a.at(P_MUL)} * {b.at(P_MUL + 1)}", "quat", P_MUL)
        if is_transform(ta) and ta == tb and opname is ast.Mult:
            self.module.need("transform_multiply")
            return CExpr(f"transform_multiply({a.code}, {b.code})", ta)
        raise self.unsupported(node, f"operator '{sym}' on {ta} and {tb}")

    def emit_BoolOp(self, node: ast.BoolOp) -> CExpr:
        sym, prec = ("&&", P_LAND) if isinstance(node.op, ast.And) else ("||", P_LOR)
        parts = [self.condition(v) for v in node.values]
        return CExpr(f" {sym} ".join(p.at(prec + 1) for p in parts), "bool", prec)

    def emit_Compare(self, node: ast.Compare) -> CExpr:
        left = self.emit(node.left)
        pieces = []
        for op, right_node in zip(node.ops, node.comparators):
            right = self.emit(right_node)
            sym = _CMP.get(type(op))
            if sym is None:
                raise self.unsupported(node, f"comparison '{type(op).__name__}'")
            scalars = ("bool", *NUMERIC_TYPES)
            if left.type not in scalars or right.type not in scalars:
                raise self.unsupported(node, f"comparison of {left.type} and {right.type}")
            if pieces and left.type != right.type:
                # Warp restricts chained comparisons (past the first) to operands of one type
                raise self.error(right_node, f"chained comparison of {left.type} and {right.type}")
            # Mixed int/float operands compare as C does (the int converts to float), exactly as
            # Warp's generated C++ `(a < b)` does.
            prec = P_EQ if sym in ("==", "!=") else P_REL
            pieces.append(CExpr(f"{left.at(prec)} {sym} {right.at(prec + 1)}", "bool", prec))
            left = right
        if len(pieces) == 1:
            return pieces[0]
        return CExpr(" && ".join(p.at(P_LAND + 1) for p in pieces), "bool", P_LAND)

    def emit_IfExp(self, node: ast.IfExp) -> CExpr:
        cond = self.condition(node.test)
        a, b = self.emit(node.body), self.emit(node.orelse)
        self.check_same(node, a.type, b.type, "conditional expression")
        return CExpr(f"{cond.at(P_COND + 1)} ? {a.at(P_COND + 1)} : {b.at(P_COND)}", a.type, P_COND)

    def emit_Call(self, node: ast.Call) -> CExpr:
        func = node.func
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            raise self.unsupported(node, "*args or **kwargs in a call")
        if isinstance(func, ast.Attribute) and func.attr == "vector" and (
                _is_wp_attr(func, "vector") or (isinstance(func.value, ast.Attribute) and _is_wp_attr(func.value, "types"))):
            return self.local_vector(node)
        if isinstance(func, ast.Attribute) and func.attr == "dtype" and isinstance(func.value, ast.Name) \
                and isinstance(self.lookup(func.value.id), ArrayType):
            name = self.constructed_type(node, self.lookup(func.value.id).dtype)  # `values.dtype(0.0)`
        elif isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id == "type" \
                and self.lookup("type") is None and len(func.args) == 1 and isinstance(func.args[0], ast.Name) \
                and not func.keywords:
            name = self.constructed_type(node, self.emit(func.args[0]).type)  # `type(x)(0.0)`
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "wp":
            name = func.attr
        elif isinstance(func, ast.Name):
            name = func.id
            if name in self.module.info.funcs:
                return self.call_helper(node, name)
            if name in self.module.info.structs and self.lookup(name) is None:
                return self.struct_constructor(node, self.module.struct_type(name, node))
            if name == "len" and len(node.args) == 1 and not node.keywords:
                arr = self.emit(node.args[0])
                if isinstance(arr.type, ArrayType):
                    return CExpr(f"{arr.code}_dim0", "int32")
                raise self.unsupported(node, f"len() of {arr.type}")
            if name in self.module.info.type_aliases and self.lookup(name) is None:
                name = self.module.info.type_aliases[name]  # `wptype(x)` with `wptype = wp.float32`
            elif not builtins.is_builtin(name, bare=True):
                raise self.unsupported(node, f"call to '{name}'")
        else:
            raise self.unsupported(node, f"call to '{ast.unparse(func)}'")
        if name == "static" and isinstance(func, ast.Attribute):
            return self.static_value(node)
        if name in TILE_BUILTINS and isinstance(func, ast.Attribute):
            return self.call_tile_builtin(node, name)
        if name == "tid" and isinstance(func, ast.Attribute) and not node.args and self.tid_value is not None:
            return CExpr(self.tid_value, "int32")
        if name == "uint32" and len(node.args) == 1 and not node.keywords and type(getattr(node.args[0], "value", None)) is int \
                and isinstance(node.args[0], ast.Constant) and 0 <= node.args[0].value < 2**32:
            return CExpr(self.unsigned_literal(node.args[0]), "uint32")  # a mask or a hash's multiplier
        if name == "block_dim" and isinstance(func, ast.Attribute) and not node.args and self.block_dim:
            return CExpr(str(self.block_dim), "int32", literal=self.block_dim)
        if name in ATOMICS:
            if node.keywords:
                raise self.unsupported(node, "keyword arguments to an atomic")
            if not node.args or not isinstance(self.emit(node.args[0]).type, ArrayType):
                raise self.unsupported(node, f"wp.{name} on anything but an array")
            place = self.array_element(node, node.args[0], node.args[1:-1])
            return self.atomic_call(node, name, place, self.emit(node.args[-1]))
        if name in SWAPS:
            return self.swap_call(node, name)
        if name == "lower_bound" and isinstance(func, ast.Attribute):
            return self.lower_bound_call(node)
        if name == "printf" and isinstance(func, ast.Attribute):
            return self.printf_call(node)
        if name in _OPERATOR_BUILTINS:
            args = [self.emit(a) for a in self.positional(node, ("a", "b"))]
            if len(args) != 2:
                raise self.error(node, f"expected 2 arguments, got {len(args)}")
            return self.binary(node, _OPERATOR_BUILTINS[name](), args[0], args[1])
        if not builtins.is_builtin(name):
            raise self.unsupported(node, f"builtin wp.{name}" if isinstance(func, ast.Attribute) else f"call to '{name}'")
        arg_nodes = self.positional(node, builtins.arg_names(name))
        return self.call_builtin(node, name, [self.emit(a) for a in arg_nodes], arg_nodes)

    def constructed_type(self, node: ast.Call, t) -> str:
        """The type an element-type constructor builds (`values.dtype(0.0)`, `type(x)(0.0)`: how generic
        code makes a zero or a cast of the type it was given), called like `wp.<type>(...)`."""
        if not isinstance(t, str) or t not in TYPES:
            raise self.unsupported(node, f"constructing a {t} from its type")
        return t

    def unsigned_literal(self, node: ast.Constant) -> str:
        """`wp.uint32(0x27D4EB2D)` as C writes it, `0x27D4EB2Du`: hexadecimal or binary where the file
        spells it so (masks and hash multipliers are read that way), else decimal."""
        text = (self.module.info.spelling(node) or "").replace("_", "")
        if text[:2].lower() in ("0x", "0b") and _INT_SPELLING.fullmatch(text) and int(text, 0) == node.value:
            return text + "u"
        return f"{node.value}u"

    def lower_bound_call(self, node: ast.Call) -> CExpr:
        """`wp.lower_bound(arr, value)` / `(arr, begin, end, value)` on a 1-D array of ints or floats: Warp's
        binary search, over the array's extent (passed with it) when no range is given."""
        if node.keywords or len(node.args) not in (2, 4):
            raise self.unsupported(node, "wp.lower_bound other than (arr, value) or (arr, begin, end, value)")
        arr = self.emit(node.args[0])
        if not isinstance(arr.type, ArrayType) or arr.type.ndim != 1 or arr.type.dtype not in ("int32", "float32", "float64"):
            raise self.unsupported(node, "wp.lower_bound of anything but a 1-D int, float or float64 array")
        if not isinstance(node.args[0], ast.Name):
            raise self.unsupported(node, "wp.lower_bound of an array other than a parameter or local name")
        value = self.emit(node.args[-1])
        self.check_same(node.args[-1], arr.type.dtype, value.type, "wp.lower_bound's value")
        if len(node.args) == 4:
            begin, end = self.int_index(node.args[1]), self.int_index(node.args[2])
        else:
            begin, end = CExpr("0", "int32", literal=0), CExpr(f"{arr.code}_dim0", "int32")
        self.module.need("lower_bound")
        return CExpr(f"lower_bound({arr.code}, {begin.code}, {end.code}, {value.code})", "int32")

    def static_value(self, node: ast.Call) -> CExpr:
        """`wp.static(expr)`: Warp evaluates `expr` in Python when it builds the kernel and uses the
        value as a constant (a Python float as float32, an int as int32). An expression of module
        constants folds here the same way, to a literal; an element of a tuple constant indexed by
        the variable of an unrolled loop (`wp.static(WEIGHTS[k])` in `for k in range(wp.static(...))`,
        which Warp evaluates once per unrolled trip) reads the tuple as a constant array."""
        if len(node.args) != 1 or node.keywords:
            raise self.error(node, "wp.static takes one expression")
        expr = node.args[0]
        value = _fold(expr, self.module.info.static_known())
        if type(value) in (bool, int, float):
            return self.emit_Constant(ast.copy_location(ast.Constant(value), expr))
        if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name) \
                and expr.value.id in self.module.info.array_constants and isinstance(expr.slice, ast.Name) \
                and expr.slice.id in self.static_loop_vars:
            t, _ = self.module.info.array_constants[expr.value.id]
            self.module.constants_used.add(expr.value.id)
            return CExpr(f"{self.module.global_c_name(expr.value.id)}[{expr.slice.id}]", t)
        raise self.unsupported(node, "wp.static of anything but module constants, or a tuple constant indexed by "
                                     "the variable of a wp.static loop")

    def positional(self, node: ast.Call, names: tuple[str, ...]) -> list[ast.AST]:
        """The call's arguments in parameter order, keywords placed by Warp's parameter names.

        A `dtype=` keyword naming float32 (the only float type translated) changes nothing and is dropped.
        """
        args = list(node.args)
        if not node.keywords:
            return args
        by_name: dict[str, ast.AST] = {}
        for kw in node.keywords:
            if kw.arg == "dtype" and isinstance(self.type_name(kw.value), str) and self.type_name(kw.value) == "float32":
                continue
            if kw.arg not in names:
                raise self.unsupported(kw, f"keyword argument '{kw.arg}'")
            by_name[kw.arg] = kw.value
        for k, pname in enumerate(names):
            if pname in by_name:
                if k < len(args):
                    raise self.error(node, f"argument '{pname}' given twice")
                if k > len(args):
                    raise self.unsupported(node, f"keyword argument '{pname}' after a missing argument")
                args.append(by_name.pop(pname))
        return args

    def type_name(self, node: ast.AST):
        """The type a type expression names (float, wp.float32, ...), or None."""
        if isinstance(node, ast.Name) and node.id in TYPE_ALIASES:
            return TYPE_ALIASES[node.id]
        if _is_wp_attr(node, *TYPE_ALIASES):
            return TYPE_ALIASES[node.attr]
        return None

    def swap_call(self, node: ast.Call, name: str) -> CExpr:
        n_values = 2 if name == "atomic_cas" else 1
        if node.keywords or len(node.args) < 2 + n_values or not isinstance(self.emit(node.args[0]).type, ArrayType):
            raise self.unsupported(node, f"wp.{name} other than (array, indices..., {'compare, ' if n_values == 2 else ''}value)")
        place = self.array_element(node, node.args[0], node.args[1:-n_values])
        values = [self.emit(v) for v in node.args[-n_values:]]
        allowed = ("int32",) if name == "atomic_cas" else ("int32", "float32")
        if place.type not in allowed:
            raise self.unsupported(node, f"wp.{name} on an array of {place.type}")
        for v, src in zip(values, node.args[-n_values:]):
            self.check_same(src, place.type, v.type, f"wp.{name} value")
        fn = "atomicCAS" if name == "atomic_cas" else "atomicExch"
        return CExpr(f"{fn}(&{place.code}, {', '.join(v.code for v in values)})", place.type)

    def array_element(self, node: ast.AST, arr: ast.AST, index_nodes: list[ast.AST]) -> CExpr:
        fake = ast.Subscript(value=arr,
                             slice=index_nodes[0] if len(index_nodes) == 1 else ast.Tuple(index_nodes, ast.Load()),
                             ctx=ast.Load())
        ast.copy_location(fake, node)
        if not index_nodes:
            raise self.error(node, "atomic without an index")
        return self.emit_Subscript(fake)

    def atomic_call(self, node: ast.AST, op: str, place: CExpr, value: CExpr, aggregate: bool = False) -> CExpr:
        """`aggregate`: the result is unused and the array is a small table (`small_tables`): lanes of
        a warp that add to one address combine first (cuda_types `warp_atomic`), measured 2.4x-10x
        faster on 4-32 targets and 4.7x slower on distinct ones, hence only there. Min and max are
        never aggregated: their early exit (a load, and no atomic once the stored value wins) is
        faster still, 5-9x faster than aggregating on 4-4,096 targets (scripts/bench_warp_atomics.py)."""
        dtype = place.type
        self.check_same(node, dtype, value.type, f"wp.{op} value")
        kind = op.split("_")[1]
        addr = f"&{place.code}"
        if aggregate and dtype in ("int32", "float32") and kind in ("add", "sub"):
            t = "int" if dtype == "int32" else "float"
            self.module.need(f"warp_atomic:add_{t}")
            return CExpr(f"warp_atomic_add({addr}, {negate(value).code if kind == 'sub' else value.code})", dtype)
        if kind in BITWISE_ATOMIC_KINDS:  # Warp has them for integer arrays only, as CUDA does
            if dtype not in ("int32", "uint32"):
                raise self.unsupported(node, f"wp.{op} on an array of {dtype}")
            return CExpr(f"atomic{kind.capitalize()}({addr}, {value.code})", dtype)
        if dtype == "uint32":  # CUDA's unsigned atomics are native, min and max included
            return CExpr(f"atomic{kind.capitalize()}({addr}, {value.code})", dtype)
        if dtype == "int32":
            if kind in ("min", "max"):
                self.module.need(f"atomic_{kind}_i")
                return CExpr(f"atomic{kind.capitalize()}Int({addr}, {value.code})", dtype)
            fn = {"add": "atomicAdd", "sub": "atomicSub"}[kind]
            return CExpr(f"{fn}({addr}, {value.code})", dtype)
        if dtype == "float32":
            if kind == "add":
                return CExpr(f"atomicAdd({addr}, {value.code})", dtype)
            if kind == "sub":
                return CExpr(f"atomicAdd({addr}, {negate(value).code})", dtype)
            self.module.need(f"atomic_{kind}_f")
            return CExpr(f"atomic{kind.capitalize()}Float({addr}, {value.code})", dtype)
        if dtype == "float64":  # native double atomicAdd (sm_60 and later)
            if kind == "add":
                return CExpr(f"atomicAdd({addr}, {value.code})", dtype)
            if kind == "sub":
                return CExpr(f"atomicAdd({addr}, {negate(value).code})", dtype)
            self.module.need(f"atomic_{kind}_d")
            return CExpr(f"atomic{kind.capitalize()}Double({addr}, {value.code})", dtype)
        if is_vec(dtype):
            n = VEC_LEN[dtype]
            self.module.need(f"vatomic_{kind}:{n}")
            return CExpr(f"atomic{kind.capitalize()}Float{n}({addr}, {value.code})", dtype)
        raise self.unsupported(node, f"wp.{op} on an array of {dtype}")

    def struct_constructor(self, node: ast.Call, st: StructType) -> CExpr:
        """`Body()`: every member zero (Warp's default); `Body(p, v, m)` or `Body(pos=p, vel=v, mass=m)`:
        every member given (Warp accepts no fewer), in declaration order (C++ aggregate initialisation)."""
        name = node.func.id
        if not node.args and not node.keywords:
            return CExpr(f"{st.name}{{}}", st)
        members = [fname for fname, _ in st.fields]
        if len(node.args) + len(node.keywords) != len(members):
            raise self.error(node, f"struct '{name}' built from {len(node.args) + len(node.keywords)} values; Warp takes "
                                   f"none or all {len(members)} ({', '.join(members)})")
        given = dict(zip(members, node.args))
        for kw in node.keywords:
            if kw.arg not in members or kw.arg in given:
                raise self.error(kw, f"struct '{name}' has no member '{kw.arg}'" if kw.arg not in members
                                 else f"member '{kw.arg}' of '{name}' given twice")
            given[kw.arg] = kw.value
        parts = []
        for fname, ft in st.fields:
            if isinstance(ft, ArrayType):
                raise self.unsupported(node, f"struct '{name}' built with its array member '{fname}'")
            value = self.emit(given[fname])
            self.check_same(given[fname], ft, value.type, f"member '{fname}' of '{name}'")
            parts.append(value.code)
        return CExpr(f"{st.name}{{{', '.join(parts)}}}", st)

    def call_helper(self, node: ast.Call, name: str) -> CExpr:
        fn = self.module.info.funcs[name]
        param_names = tuple(a.arg for a in fn.args.args)
        arg_nodes = self.positional(node, param_names)
        args = [self.emit(a) for a in arg_nodes]
        bound = self.generic_binding(fn, args, arg_nodes) if generic_params(fn) else ()
        sig = self.module.translate_func(name, node, bound)
        if len(args) != len(sig.params):
            raise self.error(node, f"'{name}' takes {len(sig.params)} arguments, got {len(args)}")
        codes = []
        for a, p, src in zip(args, sig.params, arg_nodes):
            if p.kind == "array":
                self.check_same(src, ArrayType(p.dtype, p.ndim), a.type, f"argument '{p.name}' of '{name}'")
                codes.append(a.code)
                codes.extend(f"{a.code}_dim{k}" for k in p.dim_axes())
                continue
            want = MESH if p.kind == "mesh" else self.module.structs_done.get(p.dtype, p.dtype)
            self.check_same(src, want, a.type, f"argument '{p.name}' of '{name}'")
            codes.append(a.code)
        c_name = self.module.func_c_name(name)
        return CExpr(f"{c_name}({', '.join(codes)})", sig.return_type or "void")

    def generic_binding(self, fn: ast.FunctionDef, args: list[CExpr], arg_nodes: list[ast.AST]) -> tuple:
        """((parameter, type), ...) of a generic @wp.func's generic parameters at a call: the argument's
        type (a literal's is Warp's: float32 or int32), checked against the placeholder (`Any`, or
        `Float`, `Int`, `Scalar`: scalars of that kind; `wp.array(dtype=Any)`: an array of that rank)."""
        bound = []
        for param, value, src in zip(fn.args.args, args, arg_nodes):
            annotation = param.annotation
            if annotation is None or not is_generic_annotation(annotation):
                continue
            got = value.type
            where = f"argument '{param.arg}' of the generic @wp.func '{fn.name}'"
            if isinstance(annotation, (ast.Name, ast.Attribute)):  # the placeholder itself
                placeholder = getattr(annotation, "id", None) or annotation.attr
                allowed = GENERIC_SCALARS.get(placeholder)
                if not isinstance(got, (str, StructType, ArrayType)) or got == "void":
                    raise self.unsupported(src, f"{where}: a {got} passed as {placeholder}")
                if isinstance(got, ArrayType) and isinstance(got.dtype, StructType):
                    raise self.unsupported(src, f"{where}: an array of records passed as {placeholder}")
                if allowed is not None and got not in allowed:
                    raise self.error(src, f"{where}: {got} is not a {placeholder}")
            else:  # an array of generic elements: its rank from the annotation, its dtype from the argument
                if not isinstance(got, ArrayType) or isinstance(got.dtype, StructType) or got.dtype not in TYPES:
                    raise self.unsupported(src, f"{where}: {got} where {ast.unparse(annotation)} is declared")
                want = self.annotation_type(concrete_annotation(annotation, TYPES[got.dtype].warp_attr))
                self.check_same(src, want, got, where)
            bound.append((param.arg, got))
        return tuple(bound)

    def check_same(self, node: ast.AST, want, got, what: str) -> None:
        if want != got:
            raise self.error(node, f"{what}: type {got} where {want} is expected")

    # ---- builtins ------------------------------------------------------------------------------
    def call_builtin(self, node: ast.Call, name: str, args: list[CExpr], arg_nodes: list[ast.AST] | None = None) -> CExpr:
        """`wp.<name>(args)` through the builtin table (cuda_production/builtins.py). `arg_nodes`: the
        arguments' nodes in parameter order (a builtin writing through a reference needs them)."""
        if name in ITERATING_QUERIES and self.query_loops:
            raise self.unsupported(node, f"wp.{name} inside the loop of another BVH or mesh box query (a kernel's "
                                         "queries share one traversal stack per thread, in shared memory, as in Warp)")
        if name in ITERATING_QUERIES and self.block_dim > THREADS_PER_BLOCK:  # the shared stack has a column per thread
            raise self.unsupported(node, f"wp.{name} in a kernel launched with {self.block_dim} threads per block "
                                         f"(its traversal stack in shared memory holds {THREADS_PER_BLOCK})")
        try:
            entry = builtins.lookup(name, [a.type for a in args])
            result = entry.apply(args)
        except BuiltinMismatch as exc:
            if name == "hash_grid_query" and len(args) == 4:  # Warp's overload filtering by group
                raise self.unsupported(node, "wp.hash_grid_query with a group (4 arguments)") from None
            if name in MESH_OUTPUT_ARGUMENTS and len(args) >= MESH_OUTPUT_ARGUMENTS[name]:
                raise self.unsupported(node, f"wp.{name} writing its results through output arguments (translated: "
                                             "the overload returning a query struct)") from None
            if name == "mesh_query_ray" and len(args) == 5:
                raise self.unsupported(node, "wp.mesh_query_ray with a root (a grouped mesh's subtree)") from None
            raise self.error(node, str(exc)) from None
        for k in entry.writes:  # the call updates these arguments in place: each must be a local variable
            target = arg_nodes[k] if arg_nodes is not None and k < len(arg_nodes) else None
            local = isinstance(target, ast.Name) and args[k].code == target.id and target.id not in self.tid_names \
                and target.id not in {p.name for p in self.params}
            if not local:
                raise self.unsupported(target or node, f"wp.{name} writes its argument "
                                                       f"'{ast.unparse(target) if target else k}': it must be a local variable")
        for snippet_name in entry.snippets:
            self.module.need(snippet_name)
        self.module.ctype(result.type)  # defines the struct of a matrix/quat/transform result
        if entry.stateful:
            return self.stateful_call(node, name, args, result)
        return result

    def stateful_call(self, node: ast.Call, name: str, args: list[CExpr], result: CExpr) -> CExpr:
        """A call that advances an RNG state: in a statement of its own, so that several in one
        expression draw in source order (C leaves the order of a call's arguments open; Warp's
        generated code has one statement per call)."""
        state = node.args[0] if node.args else None
        if not (isinstance(state, ast.Name) and args[0].code == state.id):
            raise self.unsupported(node, f"wp.{name} with a state other than a local variable or parameter")
        if self.no_statements:
            raise self.unsupported(node, f"wp.{name} {self.no_statements}")
        tmp = self.fresh(name)
        self.out(f"const {self.module.ctype(result.type)} {tmp} = {result.code};")
        return CExpr(tmp, result.type)

    def printf_call(self, node: ast.Call) -> CExpr:
        """wp.printf(fmt, args...): the C library's printf, as Warp calls it (a float promotes to double)."""
        if node.keywords or not node.args or not (isinstance(node.args[0], ast.Constant)
                                                   and isinstance(node.args[0].value, str)):
            raise self.unsupported(node, "wp.printf other than (format string literal, values...)")
        values = [self.emit(a) for a in node.args[1:]]
        for v, src in zip(values, node.args[1:]):
            if v.type not in ("bool", "float32", "float64", "int32", "uint32"):
                raise self.unsupported(src, f"wp.printf of a {v.type}")
        parts = [_c_string(node.args[0].value)] + [v.code for v in values]
        return CExpr(f"printf({', '.join(parts)})", "void")


def _c_string(text: str) -> str:
    """A C string literal holding `text` (non-ASCII as escaped UTF-8 bytes)."""
    escapes = {"\n": "\\n", "\t": "\\t", "\r": "\\r", '"': '\\"', "\\": "\\\\"}
    out = []
    for byte in text.encode("utf-8"):
        ch = chr(byte)
        if ch in escapes:
            out.append(escapes[ch])
        elif 32 <= byte < 127:
            out.append(ch)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def _describe(node: ast.AST) -> str:
    names = {
        "ListComp": "list comprehension", "List": "list", "Dict": "dict", "Tuple": "tuple", "Set": "set",
        "Lambda": "lambda", "With": "with statement", "Try": "try statement", "Raise": "raise statement",
        "Assert": "assert statement", "FunctionDef": "nested function", "Global": "global statement",
        "Nonlocal": "nonlocal statement", "Delete": "del statement", "Import": "import", "ImportFrom": "import",
        "JoinedStr": "f-string", "Yield": "yield", "Await": "await", "AnnAssign": "annotated assignment",
        "NamedExpr": "assignment expression", "Starred": "starred expression", "Slice": "slicing",
        "GeneratorExp": "generator expression", "DictComp": "dict comprehension", "Match": "match statement",
        "ClassDef": "class definition", "AsyncFunctionDef": "async function", "Name": "name",
    }
    return names.get(type(node).__name__, type(node).__name__)


_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Mod: "%", ast.FloorDiv: "//", ast.Pow: "**",
        ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}
_PREC = {ast.Add: P_ADD, ast.Sub: P_ADD, ast.Mult: P_MUL, ast.Div: P_MUL, ast.Mod: P_MUL, ast.BitAnd: P_BAND,
         ast.BitOr: P_BOR, ast.BitXor: P_XOR, ast.LShift: P_SHIFT, ast.RShift: P_SHIFT}
_CMP = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
ATOMICS = ("atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_or", "atomic_and", "atomic_xor")
BITWISE_ATOMIC_KINDS = ("or", "and", "xor")
# C's shifts and bitwise operators: an operand that is another operation is parenthesised, as
# people write them (C's own precedence of `&` under `==` and of `<<` under `+` surprises readers)
_BIT_PRECS = (P_SHIFT, P_BAND, P_XOR, P_BOR)
# the operators of int8, uint8 and int64 values the translator spells as Warp computes them
_STORAGE_INT_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Mod, ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift,
                    ast.RShift)
_INT_SPELLING = re.compile(r"0[xX][0-9a-fA-F]+|0[bB][01]+")
# `a[i] op= v` on an array element: the atomic Warp lowers it to (other operators load, apply and store)
AUGMENTED_ATOMICS = {ast.Add: "atomic_add", ast.Sub: "atomic_sub", ast.BitOr: "atomic_or", ast.BitAnd: "atomic_and",
                     ast.BitXor: "atomic_xor"}
TILE_WRITES = ("tile_store", "tile_atomic_add", "tile_store_indexed")
TILE_MEMORY = ("tile_load", "tile_load_indexed", *TILE_WRITES)
# the builtins that take a hash grid (a kernel's wp.uint64 parameter) as their first argument, `id`
HASH_GRID_CALLS = ("hash_grid_query", "hash_grid_point_id")
BVH_CALLS = ("bvh_query_aabb", "bvh_query_ray", "bvh_query_sphere")
# queries read one item at a time (their traversal stack in shared memory, cuda_types.py: bvh_stack),
# and the calls that advance them
ITERATING_QUERIES = BVH_CALLS + ("mesh_query_aabb",)
ITERATING_QUERY_NEXT = ("bvh_query_next", "mesh_query_aabb_next")
# a query's type -> the call that advances it (and the snippet defining it): what `for j in query` calls
# (Warp 1.19 has no for-loop iterator over a BVH query: it refuses `for j in wp.bvh_query_aabb(...)`)
QUERY_NEXT = {HASH_GRID_QUERY: ("hash_grid_query_next", "hash_grid_query"),
              MESH_QUERY_AABB: ("mesh_query_aabb_next", "mesh_query_aabb")}
ID_KIND_NAMES = {"hash_grid": "hash grid", "mesh": "mesh", "bvh": "BVH"}  # in messages, in this order
# the builtins that take a mesh (a kernel's wp.uint64 parameter) as their first argument, `id`
MESH_CALLS = ("mesh_query_aabb", "mesh_query_point", "mesh_query_point_no_sign", "mesh_query_point_sign_normal",
              "mesh_query_point_sign_winding_number", "mesh_query_ray", "mesh_eval_position", "mesh_eval_face_normal")
# the mesh queries' overloads writing through output arguments, by their least argument count (not translated)
MESH_OUTPUT_ARGUMENTS = {"mesh_query_point": 7, "mesh_query_point_no_sign": 6, "mesh_query_point_sign_normal": 7,
                         "mesh_query_point_sign_winding_number": 7, "mesh_query_ray": 9}
# compare-and-swap and exchange: (array, indices..., [compare,] value), returning the old value
SWAPS = ("atomic_cas", "atomic_exch")
# wp.add(a, b) etc.: Warp's operators as functions, translated like the operators
_OPERATOR_BUILTINS = {"add": ast.Add, "sub": ast.Sub, "mul": ast.Mult, "div": ast.Div}


@dataclass
class FuncSignature:
    name: str
    params: list[KernelParam]
    return_type: str | None
    code: str


class ModuleTranslator:
    """Holds what the kernels of one file share: its @wp.funcs, constants, and needed helpers."""

    def __init__(self, info: ModuleInfo, small_tables: Mapping[str, int] | None = None):
        self.info = info
        self.small_tables = dict(small_tables or {})  # small fixed-size atomic targets: array parameter -> elements
        self.snippets: set[str] = set()
        self.constants_used: set[str] = set()
        self.funcs_done: dict[tuple[str, tuple], FuncSignature] = {}  # (name, generic binding) -> its C
        self.func_order: list[tuple[str, tuple]] = []
        self.in_progress: set[str] = set()
        self.structs_done: dict[str, StructType] = {}
        self.struct_by_c: dict[str, StructType] = {}
        self.struct_defs: list[str] = []
        self.tuple_defs: dict[str, str] = {}
        self.writes_memo: dict[str, set[int]] = {}

    def ctype(self, t) -> str:
        """The C type of `t`, making sure a matrix, quat or transform struct it names gets defined."""
        if isinstance(t, (StructType, TupleType)):
            return t.name
        if isinstance(t, StructureType):  # a hash grid, mesh or BVH, or a query of one
            self.snippets.add(t.snippet)
            return t.c_name
        if not isinstance(t, str):
            raise TypeError(t)
        if t == "void" or t in self.struct_by_c:
            return t
        snippet_name = struct_snippet(t)
        if snippet_name:
            self.snippets.add(snippet_name)
        return ctype(t)

    def struct_type(self, name: str, where: ast.AST) -> StructType:
        """The @wp.struct `name`, its C definition recorded for the device code."""
        if name in self.structs_done:
            return self.structs_done[name]
        cls = self.info.structs[name]
        probe = FunctionTranslator(self, ast.FunctionDef(name=name, args=None, body=[], decorator_list=[]), False)
        fields, members = [], []
        for stmt in cls.body:
            if isinstance(stmt, ast.Pass) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
                continue  # docstring
            if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is None):
                raise TranslationError(self.info.filename, stmt, f"struct '{name}' member other than `name: type`")
            t = probe.annotation_type(stmt.annotation)
            fname = stmt.target.id
            if isinstance(t, StructType):
                raise TranslationError(self.info.filename, stmt, f"struct '{name}' member '{fname}' of struct type")
            fields.append((fname, t))
            if isinstance(t, ArrayType):
                # arrays inside a struct: a pointer and every extent
                members.append(f"    {self.ctype(t.dtype)}* {fname};")
                members.extend(f"    int {fname}_dim{k};" for k in range(t.ndim))
            else:
                members.append(f"    {self.ctype(t)} {fname};")
        c_members = tuple(c_identifier(f, set()) for f, _ in fields)
        for f, c in zip(fields, c_members):
            members = [m.replace(f" {f[0]};", f" {c};").replace(f" {f[0]}_dim", f" {c}_dim") for m in members]
        st = StructType(self.global_c_name(name), tuple(fields), c_members)
        self.structs_done[name] = st
        self.struct_by_c[st.name] = st
        self.struct_defs.append(f"struct {st.name}\n{{\n" + "\n".join(members) + "\n};")
        return st

    def global_c_name(self, name: str) -> str:
        """The C name of a module-level name (kernel, helper, struct, constant): renamed if it collides."""
        return c_identifier(name, set()) if needs_rename(name) else name

    def tuple_type(self, func_name: str, types: tuple) -> TupleType:
        """The C struct carrying a helper's several return values (members v0, v1, ...)."""
        tt = TupleType(f"{func_name}_result", types)
        if tt.name not in self.tuple_defs:
            members = "\n".join(f"    {self.ctype(t)} v{k};" for k, t in enumerate(types))
            self.tuple_defs[tt.name] = f"struct {tt.name}\n{{\n{members}\n}};"
        return tt

    def func_writes(self, name: str) -> set[int]:
        """Positions of the @wp.func's array parameters it writes (itself or through the helpers it calls)."""
        if name in self.writes_memo:
            return self.writes_memo[name]
        self.writes_memo[name] = set()  # a recursive helper is refused later; stop here
        fn = self.info.funcs[name]
        written = self.written_arrays(fn)
        positions = {k for k, a in enumerate(fn.args.args) if a.arg in written}
        self.writes_memo[name] = positions
        return positions

    def written_arrays(self, fn: ast.FunctionDef, within: ast.AST | None = None) -> set[str]:
        """Arrays (`a`, or `s.f` for a struct member) that `fn` (or its statement `within`) writes:
        stores, in-place updates, atomics, helpers."""
        written = set()
        for node in ast.walk(fn if within is None else within):
            if isinstance(node, (ast.Assign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    written.update(_stored_arrays(t))
            if isinstance(node, ast.Call):
                if _is_wp_attr(node.func, *ATOMICS, *SWAPS) and node.args and _array_key(node.args[0]):
                    written.add(_array_key(node.args[0]))
                if _is_wp_attr(node.func, *TILE_WRITES) and node.args and _array_key(_viewed(node.args[0])):
                    written.add(_array_key(_viewed(node.args[0])))
                if isinstance(node.func, ast.Name) and node.func.id in self.info.funcs and node.func.id != fn.name:
                    params = [a.arg for a in self.info.funcs[node.func.id].args.args]
                    by_pos = dict(enumerate(node.args))
                    by_pos.update({params.index(k.arg): k.value for k in node.keywords if k.arg in params})
                    for k in self.func_writes(node.func.id):
                        if k in by_pos and _array_key(by_pos[k]):
                            written.add(_array_key(by_pos[k]))
        return written

    def need(self, snippet_name: str) -> None:
        self.snippets.add(snippet_name)
        kind, _, arg = snippet_name.partition(":")
        if kind in ("madd", "msub", "mneg", "mscale", "matmul", "matvec", "vecmat", "transpose", "outer"):
            self.snippets.add(f"mat:{arg}")

    def translate_func(self, name: str, call_site: ast.AST, bound: tuple = ()) -> FuncSignature:
        """The @wp.func `name` in C, translated at its first call; a generic one once per `bound`
        (its generic parameters' types at a call), each instance a C++ overload of the same name."""
        key = (name, bound)
        if key in self.funcs_done:
            return self.funcs_done[key]
        if name in self.in_progress:
            raise TranslationError(self.info.filename, call_site, f"recursive @wp.func '{name}'")
        fn = self.info.funcs[name]
        if not bound and generic_params(fn):
            raise TranslationError(self.info.filename, call_site, f"generic @wp.func '{name}' used other than by a call "
                                                                  "(its parameters' types are known only at a call)")
        self.in_progress.add(name)
        t = FunctionTranslator(self, fn, is_kernel=False, bound=dict(bound))
        body = t.translate()
        ret = t.return_type
        params = []
        for p in t.params:
            if p.kind == "array":
                params.append(f"{'' if p.written else 'const '}{self.ctype(p.dtype)}* {p.name}")
                params.extend(f"int {p.name}_dim{k}" for k in p.dim_axes())
            elif p.kind == "mesh":  # the kernel's mesh, passed on by reference
                params.append(f"const {self.ctype(MESH)}& {p.name}")
            else:
                params.append(f"{self.ctype(p.dtype)} {p.name}")
        params = ", ".join(params)
        code = f"__device__ {self.ctype(ret) if ret else 'void'} {self.func_c_name(name)}({params})\n{{\n{body}\n}}"
        sig = FuncSignature(name, t.params, ret, code)
        self.funcs_done[key] = sig
        self.func_order.append(key)
        self.in_progress.discard(name)
        return sig

    def func_c_name(self, name: str) -> str:
        return self.global_c_name(name)

    def launch_of(self, kernel: str) -> TileLaunch:
        """How a kernel using tiles is launched: the file's launch call, a declared block_dim over it."""
        found = self.info.launches.get(kernel)
        if kernel in self.info.block_dims:
            return TileLaunch(found.tiled if found else True, self.info.block_dims[kernel], "declared block_dim",
                              found.ndim if found else None)
        if found is not None:
            return found
        return TileLaunch(True, DEFAULT_TILED_BLOCK_DIM, "default: no wp.launch_tiled call of this kernel with a "
                                                         "readable block_dim found (declare block_dim with --inputs)")

    def translate_kernel(self, name: str) -> TranslatedKernel:
        fn = self.info.kernels[name]
        t = FunctionTranslator(self, fn, is_kernel=True)
        body = t.translate()
        # parameters keep their Python names (they match the argument descriptions); C names where renamed
        original = {new: old for old, new in t.renames.items()}
        t.params = [replace(p, name=original[p.name], c_name=p.name) if p.name in original else p for p in t.params]
        c_name = self.global_c_name(name)
        kernel = TranslatedKernel(name, t.params, t.launch_ndim or len(t.tid_names), t.launch_names, "", "",
                                  c_name if c_name != name else "", t.block_dim, t.tiled, t.block_dim_origin,
                                  tuple(t.tile_accesses))
        name = c_name
        params = []
        for p in t.params:
            if p.kind == "struct":
                params.append(f"{p.dtype} {p.cname}")
            elif p.kind == "hash_grid":  # the grid's device pointers and dims, by value (cuda_types)
                params.append(f"{self.ctype(HASH_GRID)} {p.cname}")
            elif p.kind == "mesh":  # the mesh's device pointers (points, triangles, BVH) and counts, by value
                params.append(f"{self.ctype(MESH)} {p.cname}")
            elif p.kind == "bvh":  # the items' boxes and the tree over them, device pointers by value
                params.append(f"{self.ctype(BVH)} {p.cname}")
            elif p.kind == "array":
                base = self.ctype(p.dtype)
                restrict = " __restrict__" if restricts(p.dtype) else ""
                params.append(f"const {base}*{restrict} {p.cname}" if not p.written else f"{base}* {p.cname}")
                params.extend(f"int {d}" for d in kernel.dim_params(p))
            else:
                params.append(f"{self.ctype(p.dtype)} {p.cname}")
        params.extend(f"int {b}" for b in t.launch_names)
        head = f"__global__ void {name}({', '.join(params)})"
        if len(head) > 100:
            head = f"__global__ void {name}(\n    " + ",\n    ".join(params) + ")"
        if t.staged:
            head = (f"// Threads per block: the launch and the kernel's staging arrays (stores of large elements) use it\n"
                    f"constexpr int STAGE_THREADS = {STAGE_THREADS};\n\n{head}")
            kernel.stage_threads = STAGE_THREADS
        if t.block_dim:
            mode = "wp.launch_tiled: one block per launch index" if t.tiled else "wp.launch: blocks of consecutive threads"
            head = (f"// Uses tiles: launched with blocks of {t.block_dim} threads ({mode}); block_dim from "
                    f"{t.block_dim_origin}.\n// A tile is a __shared__ array the block's threads fill together, or an expression computed\n"
                    f"// element by element where it is used.\n{head}")
            head = (f"// Threads per block, known when compiling: the launch and the kernel's cooperative loops use it\n"
                    f"constexpr int {TILE_THREADS} = {t.block_dim};\n\n{head}")
        kernel.kernel_code = f"{head}\n{{\n{body.rstrip()}\n}}"
        kernel.device_code = self.device_code()
        return kernel

    def device_code(self) -> str:
        parts = []
        helpers = render_snippets(self.snippets)
        if helpers:
            parts.append(helpers)
        parts.extend(self.struct_defs)
        parts.extend(self.tuple_defs.values())
        if self.constants_used:
            consts = []
            for c in sorted(self.constants_used):
                if c in self.info.vector_constants:
                    t, values = self.info.vector_constants[c]
                    text = ", ".join(repr(v) if t in VECD_LEN else float_literal(v) for v in values)
                    consts.append(f"__device__ const {ctype(t)} {self.global_c_name(c)} = {{{text}}};")
                    continue
                if c in self.info.array_constants:
                    t, values = self.info.array_constants[c]
                    text = ", ".join(float_literal(v) if t == "float32" else str(v) for v in values)
                    consts.append(f"__constant__ {ctype(t)} {self.global_c_name(c)}[{len(values)}] = {{{text}}};")
                    continue
                t, v = self.info.constants[c]
                text = float_literal(v) if t == "float32" else (str(v).lower() if t == "bool" else str(v))
                consts.append(f"constexpr {ctype(t)} {self.global_c_name(c)} = {text};")
            parts.append("\n".join(consts))
        # a generic helper's instances side by side (a callee's first instance always precedes its
        # caller's first, so each name's group still comes before the groups that call it)
        first = {}
        for name, _ in self.func_order:
            first.setdefault(name, len(first))
        for key in sorted(self.func_order, key=lambda k: first[k[0]]):
            parts.append(self.funcs_done[key].code)
        return "\n\n".join(parts)


def _kernel_scope(info: ModuleInfo, name: str) -> ModuleInfo:
    """The module as kernel `name` sees it: a nested kernel also sees the locals it captures."""
    instance = info.instances.get(name)
    if instance is None or not (instance.constants or instance.type_aliases):
        return info
    constants = {n: v for n, v in info.constants.items() if n not in instance.type_aliases}
    aliases = {n: t for n, t in info.type_aliases.items() if n not in instance.constants}
    return replace(info, constants={**constants, **instance.constants}, type_aliases={**aliases, **instance.type_aliases})


def translate_source(source: str, filename: str = "<source>",
                     declared_types: dict[str, dict[str, str]] | None = None,
                     declared_captures: dict[str, dict[str, object]] | None = None,
                     block_dims: dict[str, int] | None = None) -> dict[str, TranslatedKernel | TranslationError]:
    """Translate every @wp.kernel in `source`; each kernel gets its result or its error.
    `block_dims`: declared block_dim per kernel using tiles (over the file's launch calls)."""
    info = parse_module(source, filename, declared_types, declared_captures)
    info.block_dims = dict(block_dims or {})
    return translate_module(info)


def translate_module(info: ModuleInfo) -> dict[str, TranslatedKernel | TranslationError]:
    """Translate every kernel of a parsed module, in source order; each gets its result or its error."""
    results: dict[str, TranslatedKernel | TranslationError] = dict(info.refused)
    for name in info.kernels:
        try:
            results[name] = ModuleTranslator(_kernel_scope(info, name)).translate_kernel(name)
        except TranslationError as exc:
            results[name] = exc
    lines = {**{n: e.line for n, e in info.refused.items()}, **{n: k.lineno for n, k in info.kernels.items()}}
    return dict(sorted(results.items(), key=lambda item: lines[item[0]]))


def translate_kernel(source: str, kernel_name: str, filename: str = "<source>",
                     small_tables: Mapping[str, int] | None = None, block_dim: int = 0,
                     launch_ndim: int | None = None) -> TranslatedKernel:
    """Translate one kernel of `source`, raising TranslationError if it cannot be translated.
    `small_tables`: array parameters known to be small fixed-size atomic targets (a histogram, a
    few totals), whose atomics with an unused result are warp-aggregated. `block_dim`: a kernel
    using tiles that is launched with `wp.launch_tiled(..., block_dim=block_dim)` (0: not given);
    `launch_ndim`: the dimensions of that launch, so that `i, lane = wp.tid()` names a 1-D launch's
    block and the thread's lane in it (without it, the names' count is the launch's)."""
    info = parse_module(source, filename)
    if block_dim:
        info.block_dims = {kernel_name: block_dim}
        if launch_ndim is not None and kernel_name not in info.launches:
            info.launches[kernel_name] = TileLaunch(True, block_dim, "declared block_dim", launch_ndim)
    if kernel_name not in info.kernels:
        raise TranslationError(filename, None, f"no @wp.kernel named '{kernel_name}'", kind="error")
    return ModuleTranslator(_kernel_scope(info, kernel_name), small_tables).translate_kernel(kernel_name)
