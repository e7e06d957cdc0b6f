"""The builtins a translated kernel may call: one table entry per overload, like Warp's `add_builtin`.

Each `Builtin` says, for one Warp builtin and one combination of argument types: the result type,
how it is spelled in CUDA (a template over the arguments' code, or an `emit` function for what a
template cannot say: literal folding, C precedence, variadic constructors), the device helper
snippets it needs (`cuda_types.snippet`, each mirroring Warp's native arithmetic order), and Warp's
parameter names (so keyword arguments resolve). Host emulation (`host_check.py`) needs nothing per
builtin: every spelling below is either standard C++ (<cmath>) or a snippet, and the few CUDA-only
functions they use (integer `min`/`max`) are defined by the emulation header.

Adding a builtin is one `add_builtin(...)` call here plus a numeric test against Warp.
Overloads are concrete (no generic types): the loops below register one per vector/matrix size,
as Warp's own registrations iterate over its type lists.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from cuda_production.cuda_types import (
    BVH, BVH_QUERY, HASH_GRID, HASH_GRID_QUERY, MESH, MESH_QUERY_AABB, MESH_QUERY_POINT, MESH_QUERY_RAY, P_ATOM, P_COND, P_REL, P_UNARY, CExpr,
    HALF_CONVERSIONS, float_literal,
)


class BuiltinMismatch(Exception):
    """No overload of a builtin accepts these arguments (the message says why)."""


@dataclass(frozen=True)
class Builtin:
    key: str  # the name after `wp.` (or the bare Python name, see `python_name`)
    input_types: tuple[str, ...] | None  # canonical type per argument; None: `emit` checks (variadic)
    value_type: str | None  # canonical result type (None: `emit` decides)
    cuda: str | None = None  # template over the arguments' code: "fminf({0}, {1})" (no other braces); an atom
    emit: Callable[[list[CExpr]], CExpr] | None = None  # for what a template cannot express
    snippets: tuple[str, ...] = ()  # device helpers the spelling calls (cuda_types.snippet names)
    arg_names: tuple[str, ...] = ()  # Warp's parameter names, for keyword arguments
    python_name: bool = False  # also callable without `wp.` (Python's own min, max, abs, float, int)
    # advances its first argument, a Warp RNG state (uint32&): the translator evaluates the call in a
    # statement of its own, in source order, as Warp's generated code does
    stateful: bool = False
    # positions of the arguments the call writes through a C++ reference (`T&`): the translator
    # requires each to be a local variable, which the call then updates
    writes: tuple[int, ...] = ()

    def accepts(self, types: list) -> bool:
        if self.input_types is None:
            return True
        return len(types) == len(self.input_types) and all(t == w for t, w in zip(types, self.input_types))

    def apply(self, args: list[CExpr]) -> CExpr:
        if self.emit is not None:
            return self.emit(args)
        return CExpr(self.cuda.format(*(a.code for a in args)), self.value_type)


BUILTINS: dict[str, list[Builtin]] = {}


def add_builtin(key: str, input_types: tuple[str, ...] | None, value_type: str | None, cuda: str | None = None, *,
                emit: Callable[[list[CExpr]], CExpr] | None = None, snippets: tuple[str, ...] = (),
                arg_names: tuple[str, ...] = (), python_name: bool = False, aliases: tuple[str, ...] = (),
                stateful: bool = False, writes: tuple[int, ...] = ()) -> None:
    for k in (key, *aliases):
        BUILTINS.setdefault(k, []).append(
            Builtin(k, input_types, value_type, cuda, emit, snippets, arg_names, python_name, stateful, writes))


def lookup(key: str, types: list) -> Builtin:
    """The overload of `key` accepting argument types `types`; BuiltinMismatch if none does."""
    for b in BUILTINS.get(key, ()):
        if b.accepts(types):
            return b
    raise BuiltinMismatch(f"wp.{key}() of {list(types)}")


def is_builtin(key: str, bare: bool = False) -> bool:
    """Whether `wp.<key>` (or, with bare, plain `<key>`) names a builtin of the table."""
    return key in BUILTINS and (not bare or any(b.python_name for b in BUILTINS[key]))


def arg_names(key: str) -> tuple[str, ...]:
    """Warp's parameter names of `key` (the longest overload's), for keyword arguments."""
    return max((b.arg_names for b in BUILTINS.get(key, ())), key=len, default=())


F, I, B = "float32", "int32", "bool"
VEC = {n: f"vec{n}" for n in (2, 3, 4)}
MAT = {n: f"mat{n}{n}" for n in (2, 3, 4)}


# ---- scalar math (Warp's builtin.h forwards to the C library) -----------------------------------
for name, c_name in (("sin", "sinf"), ("cos", "cosf"), ("tan", "tanf"), ("asin", "asinf"), ("acos", "acosf"),
                     ("atan", "atanf"), ("sinh", "sinhf"), ("cosh", "coshf"), ("tanh", "tanhf"), ("exp", "expf"),
                     ("log", "logf"), ("log2", "log2f"), ("log10", "log10f"), ("sqrt", "sqrtf"), ("floor", "floorf"),
                     ("ceil", "ceilf"), ("trunc", "truncf"), ("round", "roundf"), ("cbrt", "cbrtf"), ("erf", "erff"),
                     ("erfc", "erfcf")):
    add_builtin(name, (F,), F, f"{c_name}({{0}})", arg_names=("x",))
add_builtin("atan2", (F, F), F, "atan2f({0}, {1})", arg_names=("y", "x"))
add_builtin("pow", (F, F), F, "powf({0}, {1})", arg_names=("x", "y"))
add_builtin("mod", (F, F), F, "fmodf({0}, {1})", arg_names=("a", "b"))
add_builtin("mod", (I, I), I, "{0} % {1}", emit=lambda a: CExpr(f"{a[0].at(13)} % {a[1].at(14)}", I, 13))
# Warp's step(x) is 1 for x < 0, else 0
add_builtin("step", (F,), F, emit=lambda a: CExpr(f"({a[0].at(P_REL)} < 0.0f ? 1.0f : 0.0f)", F), arg_names=("x",))
# Warp multiplies by a double constant (builtin.h DEG_TO_RAD / RAD_TO_DEG), then rounds to float
add_builtin("radians", (F,), F, "(float)((double)({0}) * 0.01745329251994329577)", arg_names=("x",))
add_builtin("degrees", (F,), F, "(float)((double)({0}) * 57.29577951308232087679)", arg_names=("x",))
add_builtin("lerp", (F, F, F), F, "lerp({0}, {1}, {2})", snippets=("lerp",), arg_names=("a", "b", "t"))
add_builtin("smoothstep", (F, F, F), F, "smoothstep({0}, {1}, {2})", snippets=("smoothstep",),
            arg_names=("a", "b", "x"))


# ---- casts ---------------------------------------------------------------------------------------
def _to_float(args: list[CExpr]) -> CExpr:
    a = args[0]
    if a.type == F:
        return a
    if a.literal is not None:
        return CExpr(float_literal(float(a.literal)), F, literal=float(a.literal))
    return CExpr(f"(float){a.at(P_UNARY)}", F, P_UNARY)


def _to_int(args: list[CExpr]) -> CExpr:
    a = args[0]
    if a.type == I:
        return a
    return CExpr(f"(int){a.at(P_UNARY)}", I, P_UNARY)  # truncation toward zero, as Warp


for t in (F, I, B):
    add_builtin("float", (t,), F, emit=_to_float, python_name=True, aliases=("float32",))
    add_builtin("int", (t,), I, emit=_to_int, python_name=True, aliases=("int32",))
add_builtin("bool", (B,), B, emit=lambda a: a[0], python_name=True)
add_builtin("bool", (I,), B, emit=lambda a: CExpr(f"{a[0].at(P_REL)} != 0", B, 9), python_name=True)
add_builtin("bool", (F,), B, emit=lambda a: CExpr(f"{a[0].at(P_REL)} != 0.0f", B, 9), python_name=True)


# ---- min, max, abs, clamp, sign -----------------------------------------------------------------
add_builtin("min", (F, F), F, "fminf({0}, {1})", arg_names=("a", "b"), python_name=True)
add_builtin("min", (I, I), I, "min({0}, {1})", arg_names=("a", "b"), python_name=True)
add_builtin("max", (F, F), F, "fmaxf({0}, {1})", arg_names=("a", "b"), python_name=True)
add_builtin("max", (I, I), I, "max({0}, {1})", arg_names=("a", "b"), python_name=True)
for n, v in VEC.items():
    add_builtin("min", (v, v), v, "min({0}, {1})", snippets=(f"vmin:{n}",), arg_names=("a", "b"), python_name=True)
    add_builtin("max", (v, v), v, "max({0}, {1})", snippets=(f"vmax:{n}",), arg_names=("a", "b"), python_name=True)
add_builtin("abs", (F,), F, "fabsf({0})", arg_names=("x",), python_name=True)
add_builtin("abs", (I,), I, "abs({0})", arg_names=("x",), python_name=True)
add_builtin("clamp", (F, F, F), F, "fminf(fmaxf({0}, {1}), {2})", arg_names=("x", "low", "high"))
add_builtin("clamp", (I, I, I), I, "min(max({0}, {1}), {2})", arg_names=("x", "low", "high"))
add_builtin("sign", (F,), F, "signf({0})", snippets=("sign",), arg_names=("x",))
add_builtin("sign", (I,), I, emit=lambda a: CExpr(f"({a[0].at(P_REL)} < 0 ? -1 : 1)", I), arg_names=("x",))


# ---- selection -----------------------------------------------------------------------------------
def _where(args: list[CExpr]) -> CExpr:
    cond, a, b = args
    if a.type != b.type:
        raise BuiltinMismatch(f"wp.where() values: type {b.type} where {a.type} is expected")
    return CExpr(f"{cond.at(P_COND + 1)} ? {a.at(P_COND + 1)} : {b.at(P_COND)}", a.type, P_COND)


def _select(args: list[CExpr]) -> CExpr:
    # Warp's deprecated select(cond, value_if_false, value_if_true): note the order
    cond, if_false, if_true = args
    if if_false.type != if_true.type:
        raise BuiltinMismatch(f"wp.select() values: type {if_true.type} where {if_false.type} is expected")
    return CExpr(f"{cond.at(P_COND + 1)} ? {if_true.at(P_COND + 1)} : {if_false.at(P_COND)}", if_true.type, P_COND)


def _arity(n: int, fn: Callable[[list[CExpr]], CExpr], key: str) -> Callable[[list[CExpr]], CExpr]:
    def emit(args: list[CExpr]) -> CExpr:
        if len(args) != n:
            raise BuiltinMismatch(f"wp.{key}() expects {n} arguments, got {len(args)}")
        if args[0].type not in (B, I, F):
            raise BuiltinMismatch(f"wp.{key}() condition of type {args[0].type}")
        return fn(args)
    return emit


add_builtin("where", None, None, emit=_arity(3, _where, "where"), arg_names=("cond", "value_if_true", "value_if_false"))
add_builtin("select", None, None, emit=_arity(3, _select, "select"), arg_names=("cond", "value_if_false", "value_if_true"))


# ---- vectors -------------------------------------------------------------------------------------
for n, v in VEC.items():
    add_builtin("dot", (v, v), F, "dot({0}, {1})", snippets=(f"dot:{n}",), arg_names=("a", "b"))
    add_builtin("length", (v,), F, "length({0})", snippets=(f"length:{n}",), arg_names=("a",))
    add_builtin("length_sq", (v,), F, "length_sq({0})", snippets=(f"length_sq:{n}",), arg_names=("a",))
    add_builtin("normalize", (v,), v, "normalize({0})", snippets=(f"normalize:{n}",), arg_names=("a",))
    add_builtin("outer", (v, v), MAT[n], "outer({0}, {1})", snippets=(f"outer:{n}",), arg_names=("a", "b"))
    add_builtin("diag", (v,), MAT[n], "diag({0})", snippets=(f"diag:{n}",), arg_names=("vec",))
    add_builtin("lerp", (v, v, F), v, "lerp({0}, {1}, {2})", snippets=(f"vlerp:{n}",), arg_names=("a", "b", "t"))
add_builtin("cross", (VEC[3], VEC[3]), VEC[3], "cross({0}, {1})", snippets=("cross",), arg_names=("a", "b"))


def _floats(args: list[CExpr]) -> list[CExpr]:
    """Constructors take int literals too (Warp converts them to float; an int variable it refuses)."""
    return [_to_float([a]) if a.type == I and a.literal is not None else a for a in args]


def _vec_ctor(n: int) -> Callable[[list[CExpr]], CExpr]:
    vt = f"vec{n}"

    def emit(args: list[CExpr]) -> CExpr:
        args = _floats(args)
        if not args:
            return CExpr(f"make_float{n}({', '.join(['0.0f'] * n)})", vt)
        if len(args) == 1 and args[0].type == F:  # broadcast, as Warp's vec3(s)
            return CExpr(f"make_float{n}({', '.join([args[0].code] * n)})", vt)
        if len(args) == 1 and args[0].type == vt:
            return args[0]
        if len(args) != n or any(a.type != F for a in args):
            raise BuiltinMismatch(f"wp.vec{n}() of {[a.type for a in args]}")
        return CExpr(f"make_float{n}({', '.join(a.code for a in args)})", vt)
    return emit


for n, v in VEC.items():
    # wp.vec3(s) of one float: make_float3(s), the one-argument overload CUDA's samples (helper_math.h)
    # define, so that an expression `s` is written once; registered first, so it wins over the general form
    add_builtin(v, (F,), v, f"make_float{n}({{0}})", snippets=(f"splat:{n}",), aliases=(f"{v}f",))
    add_builtin(v, None, v, emit=_vec_ctor(n), aliases=(f"{v}f",))


# ---- matrices ------------------------------------------------------------------------------------
def _mat_ctor(n: int) -> Callable[[list[CExpr]], CExpr]:
    mt = f"mat{n}{n}"

    def emit(args: list[CExpr]) -> CExpr:
        args = _floats(args)
        if not args:
            return CExpr(f"{mt}{{}}", mt)
        if len(args) == n * n and all(a.type == F for a in args):
            rows = ", ".join("{" + ", ".join(a.code for a in args[r * n:(r + 1) * n]) + "}" for r in range(n))
            return CExpr(f"{mt}{{{{{rows}}}}}", mt)
        if len(args) == n and all(a.type == f"vec{n}" for a in args):  # Warp: vectors are the rows
            rows = ", ".join("{" + ", ".join(f"{a.at(P_ATOM)}.{c}" for c in "xyzw"[:n]) + "}" for a in args)
            return CExpr(f"{mt}{{{{{rows}}}}}", mt)
        raise BuiltinMismatch(f"wp.mat{n}{n}() of {[a.type for a in args]}")
    return emit


for n, m in MAT.items():
    add_builtin(m, None, m, emit=_mat_ctor(n), snippets=(f"mat:{n}",), aliases=(f"{m}f",))
    # a helper function, so that each vector (often an expression: `x1 - x0`) is computed once
    for way in ("rows", "cols"):
        add_builtin(f"matrix_from_{way}", (VEC[n],) * n, m, f"matrix_from_{way}({', '.join(f'{{{k}}}' for k in range(n))})",
                    snippets=(f"matrix_from_{way}:{n}",))
    add_builtin("transpose", (m,), m, "transpose({0})", snippets=(f"transpose:{n}",), arg_names=("a",))
    add_builtin("determinant", (m,), F, "determinant({0})", snippets=(f"determinant:{n}",), arg_names=("a",))
    add_builtin("trace", (m,), F, "trace({0})", snippets=(f"trace:{n}",), arg_names=("a",))
    add_builtin("ddot", (m, m), F, "ddot({0}, {1})", snippets=(f"ddot:{n}",), arg_names=("a", "b"))


def _identity(args: list[CExpr]) -> CExpr:
    if len(args) != 1 or args[0].literal not in (2, 3, 4) or args[0].type != I:
        raise BuiltinMismatch("wp.identity() needs n=2, 3 or 4 as a literal")
    n = args[0].literal
    rows = ", ".join("{" + ", ".join("1.0f" if i == j else "0.0f" for j in range(n)) + "}" for i in range(n))
    return CExpr(f"mat{n}{n}{{{{{rows}}}}}", f"mat{n}{n}")


# the struct of the size drawn is defined by the translator from the result type (`ModuleTranslator.ctype`)
add_builtin("identity", None, None, emit=_identity, arg_names=("n", "dtype"))
for n in (2, 3):
    add_builtin("inverse", (MAT[n],), MAT[n], "inverse({0})", snippets=(f"inverse:{n}",), arg_names=("a",))


# ---- quaternions (warp/native/quat.h) ------------------------------------------------------------
Q, T, V3 = "quat", "transform", "vec3"


def _quat_ctor(args: list[CExpr]) -> CExpr:
    args = _floats(args)
    if not args:
        return CExpr("quat{0.0f, 0.0f, 0.0f, 0.0f}", Q)
    if len(args) == 4 and all(a.type == F for a in args):
        return CExpr(f"quat{{{', '.join(a.code for a in args)}}}", Q)
    if len(args) == 2 and args[0].type == V3 and args[1].type == F:
        v = args[0]
        return CExpr(f"make_quat({v.code}, {args[1].code})", Q)
    if len(args) == 1 and args[0].type == Q:
        return args[0]
    raise BuiltinMismatch(f"wp.quat() of {[a.type for a in args]}")


add_builtin("quat", None, Q, emit=_quat_ctor, snippets=("quat", "make_quat"), aliases=("quatf",))
add_builtin("quat_identity", (), Q, emit=lambda a: CExpr("quat{0.0f, 0.0f, 0.0f, 1.0f}", Q), snippets=("quat",),
            arg_names=("dtype",))
add_builtin("quat_from_axis_angle", (V3, F), Q, "quat_from_axis_angle({0}, {1})", snippets=("quat_from_axis_angle",),
            arg_names=("axis", "angle"))
add_builtin("quat_rotate", (Q, V3), V3, "quat_rotate({0}, {1})", snippets=("quat_rotate",), arg_names=("q", "p"))
add_builtin("quat_rotate_inv", (Q, V3), V3, "quat_rotate_inv({0}, {1})", snippets=("quat_rotate_inv",),
            arg_names=("q", "p"))
add_builtin("quat_inverse", (Q,), Q, "quat_inverse({0})", snippets=("quat_inverse",), arg_names=("q",))
add_builtin("quat_to_matrix", (Q,), "mat33", "quat_to_matrix({0})", snippets=("quat_to_matrix",), arg_names=("q",))
add_builtin("skew", (V3,), "mat33", "skew({0})", snippets=("skew",), arg_names=("vec",))
add_builtin("quat_rpy", (F, F, F), Q, "quat_rpy({0}, {1}, {2})", snippets=("quat_rpy",),
            arg_names=("roll", "pitch", "yaw"))
add_builtin("normalize", (Q,), Q, "normalize({0})", snippets=("qnormalize",), arg_names=("a",))
add_builtin("length", (Q,), F, "length({0})", snippets=("qlength",), arg_names=("a",))
add_builtin("dot", (Q, Q), F, "dot({0}, {1})", snippets=("qdot",), arg_names=("a", "b"))


# ---- transforms (warp/native/spatial.h) ----------------------------------------------------------
def _transform_ctor(args: list[CExpr]) -> CExpr:
    if len(args) == 2 and args[0].type == V3 and args[1].type == Q:
        return CExpr(f"transform{{{args[0].code}, {args[1].code}}}", T)
    if len(args) == 1 and args[0].type == T:
        return args[0]
    raise BuiltinMismatch(f"wp.transform() of {[a.type for a in args]}")


add_builtin("transform", None, T, emit=_transform_ctor, snippets=("transform",), arg_names=("p", "q"),
            aliases=("transformf",))
add_builtin("transform_identity", (), T,
            emit=lambda a: CExpr("transform{make_float3(0.0f, 0.0f, 0.0f), quat{0.0f, 0.0f, 0.0f, 1.0f}}", T),
            snippets=("transform",), arg_names=("dtype",))
add_builtin("transform_get_translation", (T,), V3, "{0}.p", emit=lambda a: CExpr(f"{a[0].at(P_ATOM)}.p", V3),
            snippets=("transform",), arg_names=("xform",))
add_builtin("transform_get_rotation", (T,), Q, emit=lambda a: CExpr(f"{a[0].at(P_ATOM)}.q", Q),
            snippets=("transform",), arg_names=("xform",))
add_builtin("transform_point", (T, V3), V3, "transform_point({0}, {1})", snippets=("transform_point",),
            arg_names=("xform", "point"))
add_builtin("transform_vector", (T, V3), V3, "transform_vector({0}, {1})", snippets=("transform_vector",),
            arg_names=("xform", "vec"))
add_builtin("transform_multiply", (T, T), T, "transform_multiply({0}, {1})", snippets=("transform_multiply",),
            arg_names=("a", "b"))
add_builtin("transform_inverse", (T,), T, "transform_inverse({0})", snippets=("transform_inverse",),
            arg_names=("xform",))


# ---- math constants (wp.pi etc.): Warp's float32 values ------------------------------------------
CONSTANTS: dict[str, CExpr] = {
    "pi": CExpr("3.14159265358979f", F),
    "e": CExpr("2.71828182845905f", F),
    "tau": CExpr("6.28318530717959f", F),
    "half_pi": CExpr("1.57079632679490f", F),
    "inf": CExpr("INFINITY", F),
}


# ---- float64, float16 and uint32 (Warp's builtin.h: the C library's double functions) -----------
D, H, U = "float64", "float16", "uint32"
BF = "bfloat16"


def _half_snippets(*types: str) -> tuple[str, ...]:
    """The header snippets (cuda_fp16.h, cuda_bf16.h) a conversion between `types` needs."""
    return tuple(dict.fromkeys(HALF_CONVERSIONS[t][3] for t in types if t in HALF_CONVERSIONS))


def double_literal(value: float) -> str:
    """A double constant in C, at full precision (Warp's wp.float64(0.1) is the double 0.1)."""
    text = repr(float(value))
    if "inf" in text or "nan" in text:
        raise ValueError(text)
    return text if ("." in text or "e" in text) else text + ".0"


def _to_double(args: list[CExpr]) -> CExpr:
    a = args[0]
    if a.type == D:
        return a
    if a.literal is not None and not isinstance(a.literal, bool):
        # Warp builds a 64-bit constant straight from the literal (codegen: "constant precision preservation")
        lit = float(a.literal)
        return CExpr(double_literal(lit), D, P_ATOM if lit >= 0 else P_UNARY, literal=lit)
    if a.type in HALF_CONVERSIONS:
        return CExpr(f"(double){HALF_CONVERSIONS[a.type][0]}({a.code})", D, P_UNARY)
    return CExpr(f"(double){a.at(P_UNARY)}", D, P_UNARY)


def _cast(to: str, ctype_: str) -> Callable[[list[CExpr]], CExpr]:
    def emit(args: list[CExpr]) -> CExpr:
        a = args[0]
        if a.type == to:
            return a
        if a.type in HALF_CONVERSIONS:  # through float, as Warp's half and bfloat16 conversions
            to_float = HALF_CONVERSIONS[a.type][0]
            if to == F:
                return CExpr(f"{to_float}({a.code})", to)
            return CExpr(f"({ctype_}){to_float}({a.code})", to, P_UNARY)
        return CExpr(f"({ctype_}){a.at(P_UNARY)}", to, P_UNARY)
    return emit


def _to_half(kind: str) -> Callable[[list[CExpr]], CExpr]:
    """`wp.float16(x)` / `wp.bfloat16(x)`: CUDA's rounding conversion (to nearest even, as Warp's)."""
    _, from_float, from_double, _ = HALF_CONVERSIONS[kind]

    def emit(args: list[CExpr]) -> CExpr:
        a = args[0]
        if a.type == kind:
            return a
        if a.literal is not None and not isinstance(a.literal, bool):
            return CExpr(f"{from_float}({float_literal(float(a.literal))})", kind)
        if a.type == D:
            return CExpr(f"{from_double}({a.code})", kind)
        if a.type == F:
            return CExpr(f"{from_float}({a.code})", kind)
        if a.type in HALF_CONVERSIONS:  # one 16-bit float to the other: through float
            return CExpr(f"{from_float}({HALF_CONVERSIONS[a.type][0]}({a.code}))", kind)
        return CExpr(f"{from_float}((float){a.at(P_UNARY)})", kind)
    return emit


for t in (F, I, B, D, U, H, BF):
    add_builtin("float64", (t,), D, emit=_to_double, snippets=_half_snippets(t))
    for half in (H, BF):
        add_builtin(half, (t,), half, emit=_to_half(half), snippets=_half_snippets(half, t))
    add_builtin("uint32", (t,), U, emit=_cast(U, "uint32_t"), snippets=_half_snippets(t))
for t in (D, U, H, BF):
    add_builtin("float", (t,), F, emit=_cast(F, "float"), python_name=True, aliases=("float32",),
                snippets=_half_snippets(t))
    add_builtin("int", (t,), I, emit=_cast(I, "int"), python_name=True, aliases=("int32",),
                snippets=_half_snippets(t))
# int8, uint8 and int64: conversions to and from the other scalars, C's casts as in Warp's builtin.h (a
# float past the target's range is undefined there as here: the generators clamp first)
S8, U8, L = "int8", "uint8", "int64"
S16, U16 = "int16", "uint16"  # audio samples (PCM), depth images in millimetres
for t in (F, I, D, U, S8, U8, L, S16, U16):
    for to, c_type in ((S8, "int8_t"), (U8, "uint8_t"), (L, "int64_t"), (S16, "int16_t"), (U16, "uint16_t")):
        add_builtin(to, (t,), to, emit=_cast(to, c_type))
# min, max, clamp and abs: Warp's (builtin.h: compared in the type, `abs` of a uint8 is itself); the
# 8-bit ones are int's (C promotes the arguments), narrowed back (Warp's int8 abs(-128) is -128);
# int64's are CUDA's llmin/llmax/llabs
def _through_int(c_type: str, value_type: str, form: str) -> Callable[[list[CExpr]], CExpr]:
    """`form` (int's functions) over the arguments, the result narrowed back to `c_type`."""
    def emit(args: list[CExpr]) -> CExpr:
        return CExpr(f"({c_type}){form.format(*(a.code for a in args))}", value_type, P_UNARY)
    return emit


for t, c_type in ((S8, "int8_t"), (U8, "uint8_t"), (S16, "int16_t"), (U16, "uint16_t")):
    add_builtin("min", (t, t), t, emit=_through_int(c_type, t, "min({0}, {1})"), arg_names=("a", "b"), python_name=True)
    add_builtin("max", (t, t), t, emit=_through_int(c_type, t, "max({0}, {1})"), arg_names=("a", "b"), python_name=True)
    add_builtin("clamp", (t, t, t), t, emit=_through_int(c_type, t, "min(max({0}, {1}), {2})"),
                arg_names=("x", "low", "high"))
add_builtin("abs", (S8,), S8, emit=_through_int("int8_t", S8, "abs({0})"), arg_names=("x",), python_name=True)
add_builtin("abs", (U8,), U8, emit=lambda a: a[0], arg_names=("x",), python_name=True)
add_builtin("abs", (S16,), S16, emit=_through_int("int16_t", S16, "abs({0})"), arg_names=("x",), python_name=True)
add_builtin("abs", (U16,), U16, emit=lambda a: a[0], arg_names=("x",), python_name=True)
add_builtin("min", (L, L), L, "llmin({0}, {1})", arg_names=("a", "b"), python_name=True)
add_builtin("max", (L, L), L, "llmax({0}, {1})", arg_names=("a", "b"), python_name=True)
add_builtin("clamp", (L, L, L), L, "llmin(llmax({0}, {1}), {2})", arg_names=("x", "low", "high"))
add_builtin("abs", (L,), L, "llabs({0})", arg_names=("x",), python_name=True)
for t in (S8, U8, L, S16, U16):
    add_builtin("float", (t,), F, emit=_cast(F, "float"), python_name=True, aliases=("float32",))
    add_builtin("int", (t,), I, emit=_cast(I, "int"), python_name=True, aliases=("int32",))
    add_builtin("float64", (t,), D, emit=_to_double)
    add_builtin("uint32", (t,), U, emit=_cast(U, "uint32_t"))
for name in ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "exp", "log", "log2", "log10", "sqrt",
             "floor", "ceil", "trunc", "round", "cbrt"):
    add_builtin(name, (D,), D, f"{name}({{0}})", arg_names=("x",))
add_builtin("atan2", (D, D), D, "atan2({0}, {1})", arg_names=("y", "x"))
add_builtin("pow", (D, D), D, "pow({0}, {1})", arg_names=("x", "y"))
add_builtin("mod", (D, D), D, "fmod({0}, {1})", arg_names=("a", "b"))
add_builtin("min", (D, D), D, "fmin({0}, {1})", arg_names=("a", "b"), python_name=True)
add_builtin("max", (D, D), D, "fmax({0}, {1})", arg_names=("a", "b"), python_name=True)
add_builtin("abs", (D,), D, "fabs({0})", arg_names=("x",), python_name=True)
# Warp's half and bfloat16 min/max compare in float (builtin.h _wp_native_fmin/_fmax), the result
# rounded back (exact)
for half in (H, BF):
    to_float, from_float, _, header = HALF_CONVERSIONS[half]
    for name, fn in (("min", "fminf"), ("max", "fmaxf")):
        add_builtin(name, (half, half), half, f"{from_float}({fn}({to_float}({{0}}), {to_float}({{1}})))",
                    snippets=(header,), arg_names=("a", "b"), python_name=True)
add_builtin("clamp", (D, D, D), D, "fmin(fmax({0}, {1}), {2})", arg_names=("x", "low", "high"))
add_builtin("sign", (D,), D, emit=lambda a: CExpr(f"({a[0].at(P_REL)} < 0.0 ? -1.0 : 1.0)", D), arg_names=("x",))


def _vecd_ctor(n: int) -> Callable[[list[CExpr]], CExpr]:
    """wp.vec{n}d(...): components are float64 values or literals (Warp casts literals to float64)."""
    vt = f"vec{n}d"

    def emit(args: list[CExpr]) -> CExpr:
        args = [_to_double([a]) if a.literal is not None and not isinstance(a.literal, bool) else a for a in args]
        if not args:
            return CExpr(f"make_double{n}({', '.join(['0.0'] * n)})", vt)
        if len(args) == 1 and args[0].type == D:
            return CExpr(f"make_double{n}({', '.join([args[0].code] * n)})", vt)
        if len(args) == 1 and args[0].type == vt:
            return args[0]
        if len(args) != n or any(a.type != D for a in args):
            raise BuiltinMismatch(f"wp.vec{n}d() of {[a.type for a in args]}")
        return CExpr(f"make_double{n}({', '.join(a.code for a in args)})", vt)
    return emit


for n in (2, 3, 4):
    add_builtin(f"vec{n}d", None, f"vec{n}d", emit=_vecd_ctor(n))

# component-wise product and quotient of two vectors, float32 and float64 alike
for n in (2, 3, 4):
    for v in (VEC[n], f"vec{n}d"):
        for name in ("cw_mul", "cw_div"):
            add_builtin(name, (v, v), v, f"{name}({{0}}, {{1}})", snippets=(f"{name}:{v}",), arg_names=("a", "b"))


# ---- random numbers and noise (warp/native/rand.h, noise.h) --------------------------------------
# The state is a uint32 local that randi/randu/randf/randn advance in place (stateful).
add_builtin("rand_init", (I,), U, "rand_init({0})", snippets=("rand_init:1",), arg_names=("seed",))
add_builtin("rand_init", (I, I), U, "rand_init({0}, {1})", snippets=("rand_init:2",), arg_names=("seed", "offset"))
add_builtin("randi", (U,), I, "randi({0})", snippets=("randi:1",), arg_names=("state",), stateful=True)
add_builtin("randi", (U, I, I), I, "randi({0}, {1}, {2})", snippets=("randi:3",), arg_names=("state", "low", "high"),
            stateful=True)
add_builtin("randu", (U,), U, "randu({0})", snippets=("randu:1",), arg_names=("state",), stateful=True)
add_builtin("randu", (U, U, U), U, "randu({0}, {1}, {2})", snippets=("randu:3",), arg_names=("state", "low", "high"),
            stateful=True)
add_builtin("randf", (U,), F, "randf({0})", snippets=("randf:1",), arg_names=("state",), stateful=True)
add_builtin("randf", (U, F, F), F, "randf({0}, {1}, {2})", snippets=("randf:3",), arg_names=("state", "low", "high"),
            stateful=True)
add_builtin("randn", (U,), F, "randn({0})", snippets=("randn",), arg_names=("state",), stateful=True)
# noise takes the state by value (it hashes it with the lattice point): not stateful
add_builtin("noise", (U, F), F, "noise({0}, {1})", snippets=("noise:1",), arg_names=("state", "x"))
add_builtin("pnoise", (U, F, I), F, "pnoise({0}, {1}, {2})", snippets=("pnoise:1",), arg_names=("state", "x", "px"))
for n, v in VEC.items():
    add_builtin("noise", (U, v), F, "noise({0}, {1})", snippets=(f"noise:{n}",), arg_names=("state", "xy"))
    periods = ("px", "py", "pz", "pt")[:n]
    add_builtin("pnoise", (U, v) + (I,) * n, F, f"pnoise({{0}}, {{1}}, {', '.join(f'{{{k + 2}}}' for k in range(n))})",
                snippets=(f"pnoise:{n}",), arg_names=("state", "xy", *periods))


# ---- hash grids (warp/native/hashgrid.h) ---------------------------------------------------------
# The grid is a kernel parameter typed wp.uint64 (the translator types it HASH_GRID by this use);
# float32 points only, and no group filter (the 4-argument hash_grid_query) yet.
add_builtin("hash_grid_query", (HASH_GRID, VEC[3], F), HASH_GRID_QUERY, "hash_grid_query({0}, {1}, {2})",
            snippets=("hash_grid_query",), arg_names=("id", "point", "max_dist"))
# advances the query and writes the point's index into an int local
add_builtin("hash_grid_query_next", (HASH_GRID_QUERY, I), B, "hash_grid_query_next({0}, {1})",
            snippets=("hash_grid_query",), arg_names=("query", "index"), writes=(0, 1))
add_builtin("hash_grid_point_id", (HASH_GRID, I), I, "hash_grid_point_id({0}, {1})",
            snippets=("hash_grid_point_id",), arg_names=("id", "index"))


# ---- meshes (warp/native/mesh.h) -----------------------------------------------------------------
# The mesh is a kernel parameter typed wp.uint64 (the translator types it MESH by this use). The
# queries return Warp's MeshQueryPoint / MeshQueryRay structs, read by member. The optional trailing
# arguments keep Warp's defaults as C++ default arguments, so a call reads as it was written. Not
# translated: the overloads writing through output arguments, mesh_query_ray's `root` (grouped
# meshes), mesh_query_sphere, furthest points, sign_parity, velocities.
for name in ("mesh_query_point", "mesh_query_point_no_sign"):
    add_builtin(name, (MESH, VEC[3], F), MESH_QUERY_POINT, f"{name}({{0}}, {{1}}, {{2}})", snippets=(name,),
                arg_names=("id", "point", "max_dist"))
for optional in range(3):  # accuracy (default 2.0) and threshold (default 0.5) given or not
    add_builtin("mesh_query_point_sign_winding_number", (MESH, VEC[3], F) + (F,) * optional, MESH_QUERY_POINT,
                "mesh_query_point_sign_winding_number(" + ", ".join(f"{{{k}}}" for k in range(3 + optional)) + ")",
                snippets=("mesh_query_point_sign_winding_number",),
                arg_names=("id", "point", "max_dist", "accuracy", "threshold"))
for optional in range(2):  # epsilon (default 1e-3) given or not
    add_builtin("mesh_query_point_sign_normal", (MESH, VEC[3], F) + (F,) * optional, MESH_QUERY_POINT,
                "mesh_query_point_sign_normal(" + ", ".join(f"{{{k}}}" for k in range(3 + optional)) + ")",
                snippets=("mesh_query_point_sign_normal",), arg_names=("id", "point", "max_dist", "epsilon"))
add_builtin("mesh_query_ray", (MESH, VEC[3], VEC[3], F), MESH_QUERY_RAY, "mesh_query_ray({0}, {1}, {2}, {3})",
            snippets=("mesh_query_ray",), arg_names=("id", "start", "dir", "max_t", "root"))
add_builtin("mesh_eval_position", (MESH, I, F, F), VEC[3], "mesh_eval_position({0}, {1}, {2}, {3})",
            snippets=("mesh_eval_position",), arg_names=("id", "face", "bary_u", "bary_v"))
add_builtin("mesh_eval_face_normal", (MESH, I), VEC[3], "mesh_eval_face_normal({0}, {1})",
            snippets=("mesh_eval_face_normal",), arg_names=("id", "face"))
# the triangles whose bounds overlap a box (a broad phase), advanced by mesh_query_aabb_next
add_builtin("mesh_query_aabb", (MESH, VEC[3], VEC[3]), MESH_QUERY_AABB, "mesh_query_aabb({0}, {1}, {2})",
            snippets=("mesh_query_aabb",), arg_names=("id", "low", "high"))
add_builtin("mesh_query_aabb_next", (MESH_QUERY_AABB, I), B, "mesh_query_aabb_next({0}, {1})",
            snippets=("mesh_query_aabb",), arg_names=("query", "index"), writes=(0, 1))


# ---- BVHs over boxes (warp/native/bvh.h) ---------------------------------------------------------
# The BVH is a kernel parameter typed wp.uint64 (the translator types it BVH by this use). Box and ray
# and sphere queries, advanced by bvh_query_next; not translated: `root` (subtrees of grouped BVHs),
# max_dist, capsule queries, the tile queries.
add_builtin("bvh_query_aabb", (BVH, VEC[3], VEC[3]), BVH_QUERY, "bvh_query_aabb({0}, {1}, {2})",
            snippets=("bvh_query",), arg_names=("id", "low", "high", "root"))
add_builtin("bvh_query_ray", (BVH, VEC[3], VEC[3]), BVH_QUERY, "bvh_query_ray({0}, {1}, {2})",
            snippets=("bvh_query_ray",), arg_names=("id", "start", "dir", "root"))
add_builtin("bvh_query_sphere", (BVH, VEC[3], F), BVH_QUERY, "bvh_query_sphere({0}, {1}, {2})",
            snippets=("bvh_query_sphere",), arg_names=("id", "center", "radius", "root"))
# advances the query and writes the item's index into an int local
add_builtin("bvh_query_next", (BVH_QUERY, I), B, "bvh_query_next({0}, {1})",
            snippets=("bvh_query",), arg_names=("query", "index", "max_dist"), writes=(0, 1))
