"""Warp types in CUDA, and the small device helpers a translated kernel may need.

Vectors map to CUDA's own float2/float3/float4; matrices to a tiny row-major struct. Operators and
helpers are snippets, emitted only when a kernel uses them, each mirroring the arithmetic order of
Warp's native implementation (warp/native/vec.h, mat.h, builtin.h) so float results agree.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from cuda_production import random_snippets
from cuda_production.bench import THREADS_PER_BLOCK
from synthesis.dtypes import ALIASES, MATRIX_TYPES, TYPES, VECTOR_TYPES

# float32 vectors and matrices, which have operators and helpers below; their float64 twins (vec3d,
# mat33d) are values the translator builds, reads and passes, with no arithmetic (yet)
VEC_LEN = {n: k for n, k in VECTOR_TYPES.items() if TYPES[n].scalar == "float32"}
MAT_DIM = {n: k for n, k in MATRIX_TYPES.items() if TYPES[n].scalar == "float32"}
VECD_LEN = {n: k for n, k in VECTOR_TYPES.items() if TYPES[n].scalar == "float64"}
MATD_DIM = {n: k for n, k in MATRIX_TYPES.items() if TYPES[n].scalar == "float64"}
FLOAT_TYPES = ("float32", "float64", "float16", "bfloat16")  # scalar types with float arithmetic
# The 16-bit floats, as CUDA's headers convert them: (to float, from float, from double, snippet that
# includes the header). Warp computes with both in float, rounding each result back (builtin.h).
HALF_CONVERSIONS = {"float16": ("__half2float", "__float2half", "__double2half", "half"),
                    "bfloat16": ("__bfloat162float", "__float2bfloat16", "__double2bfloat16", "bf16")}
INT_TYPES = ("int32", "uint32")  # int and unsigned int in C: every operator, atomics, bit operations
# int8, uint8 (quantised values, images) and int64 (labels, token ids): read, written, converted,
# compared; their arithmetic as Warp's (builtin.h's DECLARE_INT_OPS: in int, narrowed back to the type)
STORAGE_INT_TYPES = ("int8", "uint8", "int64", "int16", "uint16")
NUMERIC_TYPES = FLOAT_TYPES + INT_TYPES + STORAGE_INT_TYPES
COMPONENTS = "xyzw"

# Warp annotation spellings -> our type names (the registry's)
TYPE_ALIASES = ALIASES


@dataclass(frozen=True)
class ArrayType:
    dtype: str
    ndim: int


@dataclass(frozen=True)
class StructType:
    """A @wp.struct: its name and its fields (name -> type: a type name or an ArrayType), in order."""
    name: str  # the C struct's name
    fields: tuple[tuple[str, object], ...]  # (Python member name, type)
    c_members: tuple[str, ...] = ()  # each member's C name (differs where the Python name collides)

    def field(self, name: str):
        return dict(self.fields).get(name)

    def c_member(self, name: str) -> str:
        return dict(zip((f for f, _ in self.fields), self.c_members)).get(name, name)


@dataclass(frozen=True)
class TileType:
    """A Warp tile: a block-wide value of `shape` (compile-time constants) with elements of `dtype`.

    Translated as a `__shared__` array of the block (row-major, flat), written cooperatively by the
    block's threads (cuda_production/tiles.py)."""
    dtype: str
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    def __str__(self) -> str:
        return f"tile({self.dtype}, shape={self.shape})"


@dataclass(frozen=True)
class LocalVectorType:
    """`wp.types.vector(dtype=T, length=N)` built in a kernel: a local C array `T name[N]` (any length,
    any scalar type), read and written by index, turned into a tile by wp.tile() and out of one by
    wp.untile(); not passed as a value."""
    dtype: str
    length: int

    def __str__(self) -> str:
        return f"vector(length={self.length}, dtype={self.dtype})"


@dataclass(frozen=True)
class StructureType:
    """A structure a kernel reaches through a `wp.uint64` id (a hash grid, a mesh, a BVH: main() builds
    it on the host and passes it by value as a struct of device pointers), or a query of one that a
    `..._next` builtin advances (a local). `label` names it in messages; `c_name` is its C struct,
    defined by snippet `snippet`."""

    label: str
    c_name: str
    snippet: str

    def __str__(self) -> str:
        return self.label

    __repr__ = __str__  # as messages list argument types


HASH_GRID = StructureType("hash grid", "HashGrid", "hash_grid")
HASH_GRID_QUERY = StructureType("hash grid query", "HashGridQuery", "hash_grid_query")  # a `for` advances it too
MESH = StructureType("mesh", "Mesh", "mesh")
BVH = StructureType("bvh", "Bvh", "bvh")
BVH_QUERY = StructureType("bvh query", "BvhQuery", "bvh_query")  # a box, ray or sphere query
MESH_QUERY_AABB = StructureType("mesh aabb query", "MeshQueryAabb", "mesh_query_aabb")
# What the mesh queries return (Warp's mesh_query_point_t / mesh_query_ray_t, wp.MeshQueryPoint /
# wp.MeshQueryRay): structs whose members a kernel reads by name; defined by the query snippets.
MESH_QUERY_POINT = StructType("MeshQueryPoint", (("result", "bool"), ("sign", "float32"), ("face", "int32"),
                                                 ("u", "float32"), ("v", "float32")))
MESH_QUERY_RAY = StructType("MeshQueryRay", (("result", "bool"), ("sign", "float32"), ("face", "int32"),
                                             ("t", "float32"), ("u", "float32"), ("v", "float32"), ("normal", "vec3")))


# C operator precedence (higher binds tighter)
P_ATOM, P_UNARY, P_MUL, P_ADD, P_SHIFT, P_REL, P_EQ, P_BAND, P_XOR, P_BOR, P_LAND, P_LOR, P_COND = (
    16, 15, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3)


@dataclass(frozen=True)
class CExpr:
    """A translated expression: its C code, its Warp type, its C precedence, and its value if a literal."""
    code: str
    type: object  # str type name, ArrayType or StructType
    prec: int = P_ATOM
    literal: object = None  # Python value of a literal

    def at(self, prec: int) -> str:
        """Code usable as an operand at precedence `prec` (parenthesised if it binds looser)."""
        return self.code if self.prec >= prec else f"({self.code})"


def float_literal(value: float) -> str:
    text = repr(float(value))
    if "inf" in text or "nan" in text:
        raise ValueError(text)
    if "e" not in text and "." not in text:
        text += ".0"
    return text + "f"


def negate(v: CExpr) -> CExpr:
    """-v, folding literals; never `--x`, which C reads as a decrement."""
    if v.literal is not None and not isinstance(v.literal, bool):
        lit = -v.literal
        return CExpr(float_literal(lit) if v.type == "float32" else str(lit), v.type,
                     P_UNARY if lit < 0 else P_ATOM, literal=lit)
    operand = v.at(P_UNARY)
    if operand.startswith(("-", "+")):
        operand = f"({v.code})"
    return CExpr(f"-{operand}", v.type, P_UNARY)


def ctype(t: str) -> str:
    return TYPES[t].ctype


def is_vec(t) -> bool:
    return isinstance(t, str) and t in VEC_LEN


def is_mat(t) -> bool:
    return isinstance(t, str) and t in MAT_DIM


def is_quat(t) -> bool:
    return t == "quat"


def is_transform(t) -> bool:
    return t == "transform"


def component_paths(t: str) -> list[str]:
    """Each component of a value of type `t` as a C member path (`.m[1][2]`, `.p.x`), in Warp's memory
    order (synthesis/dtypes.py): what a value is copied component by component through."""
    d = TYPES[t]
    if d.kind == "matrix":
        return [f".m[{i}][{j}]" for i in range(d.shape[0]) for j in range(d.shape[1])]
    if d.kind in ("vector", "quaternion"):
        return [f".{c}" for c in COMPONENTS[: d.shape[0]]]
    if d.kind == "transform":
        return [f".p.{c}" for c in "xyz"] + [f".q.{c}" for c in "xyzw"]
    return [""]


def struct_snippet(t) -> str | None:
    """The snippet defining the C struct of type `t`, if it needs one."""
    if is_mat(t):
        return f"mat:{MAT_DIM[t]}"
    if t in MATD_DIM:
        return f"matd:{MATD_DIM[t]}"
    if t in HALF_CONVERSIONS:
        return HALF_CONVERSIONS[t][3]
    if t in ("quat", "transform"):
        return t
    return None


def _comps(n: int) -> str:
    return COMPONENTS[:n]


def _make(n: int, parts: list[str]) -> str:
    return f"make_float{n}({', '.join(parts)})"


def _fn(ret: str, signature: str, body: str) -> str:
    return f"__device__ __forceinline__ {ret} {signature}\n{{\n{body}\n}}"


def _mat_elementwise(n: int, element: str) -> str:
    """Body building a mat{n}{n} `r` with r.m[i][j] = element (which may use a, b, s, i, j)."""
    return (f"    mat{n}{n} r;\n    for (int i = 0; i < {n}; ++i)\n        for (int j = 0; j < {n}; ++j)\n"
            f"            r.m[i][j] = {element};\n    return r;")


def snippet(name: str) -> tuple[str, tuple[str, ...]]:
    """Source of helper `name` and the helpers it depends on."""
    extra = random_snippets.snippet(name)  # random numbers, noise, float64 and float16 support
    if extra is not None:
        return extra
    kind, _, arg = name.partition(":")
    if kind in ("vadd", "vsub"):
        n = int(arg); sym = "+" if kind == "vadd" else "-"; v = f"float{n}"
        return _fn(v, f"operator{sym}({v} a, {v} b)",
                   f"    return {_make(n, [f'a.{c} {sym} b.{c}' for c in _comps(n)])};"), ()
    if kind == "vneg":
        n = int(arg); v = f"float{n}"
        return _fn(v, f"operator-({v} a)", f"    return {_make(n, [f'-a.{c}' for c in _comps(n)])};"), ()
    if kind == "vscale":
        n = int(arg); v = f"float{n}"
        return (_fn(v, f"operator*({v} a, float s)", f"    return {_make(n, [f'a.{c} * s' for c in _comps(n)])};")
                + "\n\n" + _fn(v, f"operator*(float s, {v} a)", f"    return {_make(n, [f's * a.{c}' for c in _comps(n)])};")), ()
    if kind == "vdiv":
        n = int(arg); v = f"float{n}"
        return _fn(v, f"operator/({v} a, float s)", f"    return {_make(n, [f'a.{c} / s' for c in _comps(n)])};"), ()
    if kind in ("cw_mul", "cw_div"):  # arg: vec{n} or vec{n}d; Warp's vec.h: component by component
        n = int(arg[3]); real = "double" if arg.endswith("d") else "float"; v = f"{real}{n}"
        sym = "*" if kind == "cw_mul" else "/"
        parts = ", ".join(f"a.{c} {sym} b.{c}" for c in _comps(n))
        return _fn(v, f"{kind}({v} a, {v} b)", f"    return make_{v}({parts});"), ()
    if kind in ("vmin", "vmax"):
        n = int(arg); v = f"float{n}"; f = "fminf" if kind == "vmin" else "fmaxf"
        return _fn(v, f"{kind[1:]}({v} a, {v} b)", f"    return {_make(n, [f'{f}(a.{c}, b.{c})' for c in _comps(n)])};"), ()
    if kind == "dot":
        n = int(arg); v = f"float{n}"
        return _fn("float", f"dot({v} a, {v} b)", "    return " + " + ".join(f"a.{c} * b.{c}" for c in _comps(n)) + ";"), ()
    if kind == "length":
        n = int(arg); v = f"float{n}"
        return _fn("float", f"length({v} a)", "    return sqrtf(dot(a, a));"), (f"dot:{n}",)
    if kind in ("matrix_from_rows", "matrix_from_cols"):  # wp.matrix_from_rows / cols: vectors as rows or columns
        n = int(arg); m = f"mat{n}{n}"; v = f"float{n}"; name = "r" if kind.endswith("rows") else "c"
        params = ", ".join(f"{v} {name}{k}" for k in range(n))
        rows = ", ".join("{" + ", ".join(f"{name}{r if name == 'r' else c}.{COMPONENTS[c if name == 'r' else r]}"
                                         for c in range(n)) + "}" for r in range(n))
        return _fn(m, f"{kind}({params})", f"    return {m}{{{{{rows}}}}};"), (f"mat:{n}",)
    if kind == "splat":  # float{n} with every component s
        n = int(arg); v = f"float{n}"
        return _fn(v, f"make_{v}(float s)", f"    return make_{v}({', '.join(['s'] * n)});"), ()
    if kind == "length_sq":
        n = int(arg); v = f"float{n}"
        return _fn("float", f"length_sq({v} a)", "    return dot(a, a);"), (f"dot:{n}",)
    if kind == "normalize":
        n = int(arg); v = f"float{n}"
        body = ("    // Warp returns the zero vector for a zero-length input\n"
                "    float l = length(a);\n"
                f"    return l > 0.0f ? {_make(n, [f'a.{c} / l' for c in _comps(n)])} : {_make(n, ['0.0f'] * n)};")
        return _fn(v, f"normalize({v} a)", body), (f"length:{n}",)
    if kind == "cross":
        body = ("    return make_float3(a.y * b.z - a.z * b.y,\n"
                "                       a.z * b.x - a.x * b.z,\n"
                "                       a.x * b.y - a.y * b.x);")
        return _fn("float3", "cross(float3 a, float3 b)", body), ()
    if kind == "vcomp":  # dynamic component index
        n = int(arg); v = f"float{n}"
        return _fn("float", f"component({v} a, int i)", "    return reinterpret_cast<const float*>(&a)[i];"), ()
    if kind == "vcomp_ref":  # a dynamic component index assigned to
        n = int(arg); v = f"float{n}"
        return _fn("float&", f"component_ref({v}& a, int i)", "    return reinterpret_cast<float*>(&a)[i];"), ()
    if kind == "get_row":
        n = int(arg); m = f"mat{n}{n}"
        return _fn(f"float{n}", f"get_row(const {m}& a, int r)", f"    return {_make(n, [f'a.m[r][{k}]' for k in range(n)])};"), (f"mat:{n}",)
    if kind == "set_row":
        n = int(arg); m = f"mat{n}{n}"
        body = "\n".join(f"    a.m[r][{k}] = v.{COMPONENTS[k]};" for k in range(n))
        return _fn("void", f"set_row({m}& a, int r, float{n} v)", body), (f"mat:{n}",)
    if kind == "mat":
        n = int(arg)
        return f"struct mat{n}{n}\n{{\n    float m[{n}][{n}];  // row-major, like Warp's mat{n}{n}\n}};", ()
    if kind in ("madd", "msub"):
        n = int(arg); m = f"mat{n}{n}"; sym = "+" if kind == "madd" else "-"
        body = _mat_elementwise(n, f"a.m[i][j] {sym} b.m[i][j]")
        return _fn(m, f"operator{sym}(const {m}& a, const {m}& b)", body), (f"mat:{n}",)
    if kind == "mneg":
        n = int(arg); m = f"mat{n}{n}"
        return _fn(m, f"operator-(const {m}& a)", _mat_elementwise(n, "-a.m[i][j]")), (f"mat:{n}",)
    if kind == "mscale":
        n = int(arg); m = f"mat{n}{n}"
        body = _mat_elementwise(n, "a.m[i][j] * s")
        return (_fn(m, f"operator*(const {m}& a, float s)", body) + "\n\n"
                + _fn(m, f"operator*(float s, const {m}& a)", "    return a * s;")), (f"mat:{n}",)
    if kind == "matmul":
        n = int(arg); m = f"mat{n}{n}"
        body = (f"    {m} r;\n    for (int i = 0; i < {n}; ++i)\n        for (int j = 0; j < {n}; ++j) {{\n"
                f"            float sum = 0.0f;\n            for (int k = 0; k < {n}; ++k)\n"
                f"                sum = fmaf(a.m[i][k], b.m[k][j], sum);  // Warp accumulates with fma\n"
                f"            r.m[i][j] = sum;\n        }}\n    return r;")
        return _fn(m, f"operator*(const {m}& a, const {m}& b)", body), (f"mat:{n}",)
    if kind == "matvec":
        n = int(arg); m = f"mat{n}{n}"; v = f"float{n}"
        rows = [" + ".join(f"a.m[{i}][{k}] * b.{COMPONENTS[k]}" for k in range(n)) for i in range(n)]
        lead = f"    return make_float{n}("
        body = lead + (",\n" + " " * len(lead)).join(rows) + ");"
        return _fn(v, f"operator*(const {m}& a, {v} b)", body), (f"mat:{n}",)
    if kind == "vecmat":  # a row vector times a matrix (Warp's mul(vec, mat)): row k of a scaled by b[k], summed
        n = int(arg); m = f"mat{n}{n}"; v = f"float{n}"
        cols = [" + ".join(f"a.m[{k}][{j}] * b.{COMPONENTS[k]}" for k in range(n)) for j in range(n)]
        lead = f"    return make_float{n}("
        body = lead + (",\n" + " " * len(lead)).join(cols) + ");"
        return _fn(v, f"operator*({v} b, const {m}& a)", body), (f"mat:{n}",)
    if kind == "transpose":
        n = int(arg); m = f"mat{n}{n}"
        return _fn(m, f"transpose(const {m}& a)", _mat_elementwise(n, "a.m[j][i]")), (f"mat:{n}",)
    if kind == "diag":  # Warp's diag(vec): the vector on the diagonal, zeros elsewhere
        n = int(arg); m = f"mat{n}{n}"; v = f"float{n}"
        rows = ", ".join("{" + ", ".join(f"d.{COMPONENTS[i]}" if i == j else "0.0f" for j in range(n)) + "}"
                         for i in range(n))
        return _fn(m, f"diag({v} d)", f"    return {m}{{{{{rows}}}}};"), (f"mat:{n}",)
    if kind == "outer":
        n = int(arg); m = f"mat{n}{n}"; v = f"float{n}"
        lines = "\n".join(f"    r.m[{i}][{j}] = a.{COMPONENTS[i]} * b.{COMPONENTS[j]};" for i in range(n) for j in range(n))
        return _fn(m, f"outer({v} a, {v} b)", f"    {m} r;\n{lines}\n    return r;"), (f"mat:{n}",)
    if kind in HASH_GRID_SNIPPETS:
        return HASH_GRID_SNIPPETS[kind]
    if kind in MESH_SNIPPETS:
        return MESH_SNIPPETS[kind]
    if kind in BVH_SNIPPETS:
        return BVH_SNIPPETS[kind]
    if kind == "lower_bound":
        return _LOWER_BOUND, ()
    if kind == "fft_butterfly":
        return _FFT_BUTTERFLY, ()
    if kind == "tile_fft_rows":
        return _TILE_FFT_ROWS, ("fft_butterfly",)
    if kind == "tile_sort_pairs":
        return _TILE_SORT_PAIRS, ()
    if kind == "wmma":
        return _WMMA, ()
    if kind == "wmma_bf16":
        return _WMMA_BF16, ("bf16", "wmma")
    if kind in ("floordiv", "floordiv64"):
        t = "int" if kind == "floordiv" else "int64_t"
        body = ("    // Python floor division: round the C quotient toward negative infinity\n"
                f"    {t} q = a / b;\n    if ((a % b != 0) && ((a < 0) != (b < 0)))\n        --q;\n    return q;")
        return _fn(t, f"floordiv({t} a, {t} b)", body), ()
    if kind == "sign":
        return _fn("float", "signf(float x)", "    return x < 0.0f ? -1.0f : 1.0f;  // Warp: sign(0) == 1"), ()
    if kind in ("atomic_min_f", "atomic_max_f"):
        f = "fminf" if kind == "atomic_min_f" else "fmaxf"
        name_ = "atomicMinFloat" if kind == "atomic_min_f" else "atomicMaxFloat"
        # As Warp's builtin.h atomic_min/max(float*): the stored value only ever moves one way, so
        # once it is already at least as far as `val` the update is a no-op and no atomic is needed;
        # under contention most threads leave after one load instead of queueing on the address.
        body = ("    // CUDA has no native float atomic min/max: compare-and-swap until no other thread intervened,\n"
                "    // leaving at once when the stored value already wins (it only moves one way)\n"
                "    int* address_as_int = reinterpret_cast<int*>(address);\n"
                "    int old = *address_as_int;\n    int assumed;\n    do {\n        assumed = old;\n"
                f"        const int result = __float_as_int({f}(val, __int_as_float(assumed)));\n"
                "        if (result == assumed)\n            break;\n"
                "        old = atomicCAS(address_as_int, assumed, result);\n"
                "    } while (assumed != old);\n    return __int_as_float(old);")
        return _fn("float", f"{name_}(float* address, float val)", body), ()
    if kind in ("atomic_min_i", "atomic_max_i"):
        op = kind.split("_")[1]
        cmp = "<" if op == "min" else ">"
        # The float helpers' early exit, for int: the stored value only moves one way, so when it
        # already wins the update is a no-op and needs no atomic (returning the value read is
        # exact: the no-op happened then). scripts/bench_warp_atomics.py on an H100: 8-80x faster
        # than a bare atomicMin/Max on 4-4,096 targets, 1.2-1.5x on distinct ones.
        body = ("    const int old = *address;\n"
                f"    return val {cmp} old ? atomic{op.capitalize()}(address, val) : old;")
        return _fn("int", f"atomic{op.capitalize()}Int(int* address, int val)", body), ()
    if kind == "lane_id":
        body = ("    // warps are cut from the block's linear thread index, whatever the block's shape\n"
                "    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u;")
        return _fn("unsigned", "lane_id()", body), ()
    if kind == "warp_atomic":
        # arg: "<op>_<type>", op in add/min/max (sub is an add of the negated value), type int/float
        op, _, t = arg.partition("_")
        c = "int" if t == "int" else "float"
        combine = {"add": "total += other;", "min": "total = other < total ? other : total;",
                   "max": "total = other > total ? other : total;"}[op]
        atomic = {("add", "int"): "atomicAdd", ("min", "int"): "atomicMin", ("max", "int"): "atomicMax",
                  ("add", "float"): "atomicAdd", ("min", "float"): "atomicMinFloat",
                  ("max", "float"): "atomicMaxFloat"}[(op, t)]
        fn = f"warp_atomic_{op}"
        body = ("    // For a small table (a histogram, a few totals) most lanes of a warp hit the same few\n"
                "    // addresses, and their atomics queue up one behind the other. The lanes that share an\n"
                "    // address combine their values first (in lane order); one of them does the atomic.\n"
                "    const unsigned peers = __match_any_sync(__activemask(), reinterpret_cast<unsigned long long>(address));\n"
                f"    {c} total = __shfl_sync(peers, val, __ffs(peers) - 1);\n"
                "    for (unsigned rest = peers & (peers - 1); rest; rest &= rest - 1) {\n"
                f"        const {c} other = __shfl_sync(peers, val, __ffs(rest) - 1);\n"
                f"        {combine}\n    }}\n"
                f"    if (lane_id() == unsigned(__ffs(peers) - 1))\n        {atomic}(address, total);")
        deps = ("lane_id",) + ((f"atomic_{op}_f",) if t == "float" and op in ("min", "max") else ())
        return _fn("void", f"{fn}({c}* address, {c} val)", body), deps
    if kind in ("vatomic_add", "vatomic_sub", "vatomic_min", "vatomic_max"):
        n = int(arg); v = f"float{n}"; op = kind.split("_")[1]
        call = {"add": "atomicAdd({p}, {x})", "sub": "atomicAdd({p}, -{x})",
                "min": "atomicMinFloat({p}, {x})", "max": "atomicMaxFloat({p}, {x})"}[op]
        parts = [call.format(p=f"&address->{c}", x=f"val.{c}") for c in _comps(n)]
        deps = (f"atomic_{op}_f",) if op in ("min", "max") else ()
        body = "    // component-wise, as Warp does; returns the old vector\n    return " + _make(n, parts) + ";"
        return _fn(v, f"atomic{op.capitalize()}Float{n}({v}* address, {v} val)", body), deps
    # ---- interpolation (builtin.h, vec.h) ----
    if kind == "lerp":
        return _fn("float", "lerp(float a, float b, float t)", "    return a * (1.0f - t) + b * t;"), ()
    if kind == "vlerp":
        n = int(arg); v = f"float{n}"
        parts = [f"a.{c} * (1.0f - t) + b.{c} * t" for c in _comps(n)]
        return _fn(v, f"lerp({v} a, {v} b, float t)", f"    return {_make(n, parts)};"), ()
    if kind == "smoothstep":
        body = ("    x = fminf(fmaxf((x - edge0) / (edge1 - edge0), 0.0f), 1.0f);\n"
                "    return x * x * (3.0f - 2.0f * x);")
        return _fn("float", "smoothstep(float edge0, float edge1, float x)", body), ()
    # ---- matrix functions (mat.h) ----
    if kind == "trace":
        n = int(arg); m = f"mat{n}{n}"
        body = "    float r = a.m[0][0];\n" + "".join(f"    r += a.m[{i}][{i}];\n" for i in range(1, n)) + "    return r;"
        return _fn("float", f"trace(const {m}& a)", body), (f"mat:{n}",)
    if kind == "ddot":
        n = int(arg); m = f"mat{n}{n}"
        body = ("    float r = 0.0f;\n"
                f"    for (int i = 0; i < {n}; ++i)\n        for (int j = 0; j < {n}; ++j)\n"
                "            r = fmaf(a.m[i][j], b.m[i][j], r);  // Warp's muladd\n    return r;")
        return _fn("float", f"ddot(const {m}& a, const {m}& b)", body), (f"mat:{n}",)
    if kind == "determinant":
        n = int(arg); m = f"mat{n}{n}"
        if n == 2:
            return _fn("float", f"determinant(const {m}& a)", "    return a.m[0][0] * a.m[1][1] - a.m[1][0] * a.m[0][1];"), ("mat:2",)
        if n == 3:
            body = ("    return dot(make_float3(a.m[0][0], a.m[0][1], a.m[0][2]),\n"
                    "               cross(make_float3(a.m[1][0], a.m[1][1], a.m[1][2]), make_float3(a.m[2][0], a.m[2][1], a.m[2][2])));")
            return _fn("float", f"determinant(const {m}& a)", body), ("mat:3", "dot:3", "cross")
        return _fn("float", f"determinant(const {m}& a)", _DET4), ("mat:4",)
    if kind == "inverse":
        n = int(arg); m = f"mat{n}{n}"
        if n == 2:
            body = ("    // Warp: the zero matrix when the determinant is zero\n"
                    "    float det = determinant(a);\n    if (det > 0.0f || det < -0.0f) {\n"
                    "        float rcp_det = 1.0f / det;\n"
                    "        return mat22{{{a.m[1][1] * rcp_det, -a.m[0][1] * rcp_det}, {-a.m[1][0] * rcp_det, a.m[0][0] * rcp_det}}};\n"
                    "    }\n    return mat22{};")
            return _fn(m, f"inverse(const {m}& a)", body), ("determinant:2",)
        cof = {(0, 0): "a.m[1][1] * a.m[2][2] - a.m[1][2] * a.m[2][1]", (1, 0): "a.m[1][2] * a.m[2][0] - a.m[1][0] * a.m[2][2]",
               (2, 0): "a.m[1][0] * a.m[2][1] - a.m[1][1] * a.m[2][0]", (0, 1): "a.m[0][2] * a.m[2][1] - a.m[0][1] * a.m[2][2]",
               (1, 1): "a.m[0][0] * a.m[2][2] - a.m[0][2] * a.m[2][0]", (2, 1): "a.m[0][1] * a.m[2][0] - a.m[0][0] * a.m[2][1]",
               (0, 2): "a.m[0][1] * a.m[1][2] - a.m[0][2] * a.m[1][1]", (1, 2): "a.m[0][2] * a.m[1][0] - a.m[0][0] * a.m[1][2]",
               (2, 2): "a.m[0][0] * a.m[1][1] - a.m[0][1] * a.m[1][0]"}
        lines = "".join(f"        b.m[{i}][{j}] = {cof[(i, j)]};\n" for j in range(3) for i in range(3))
        body = ("    // Warp: the zero matrix when the determinant is zero\n"
                "    float det = determinant(a);\n    if (det != 0.0f) {\n        mat33 b;\n" + lines +
                "        float rcp_det = 1.0f / det;\n        for (int i = 0; i < 3; ++i)\n"
                "            for (int j = 0; j < 3; ++j)\n                b.m[i][j] = b.m[i][j] * rcp_det;\n"
                "        return b;\n    }\n    return mat33{};")
        return _fn(m, f"inverse(const {m}& a)", body), ("determinant:3",)
    # ---- quaternions (quat.h): x, y, z, w like Warp's quat_t ----
    if kind == "quat":
        return "struct quat\n{\n    float x, y, z, w;  // Warp's order: vector part, then scalar part\n};", ()
    if kind == "make_quat":
        return _fn("quat", "make_quat(float3 v, float w)", "    return quat{v.x, v.y, v.z, w};"), ("quat",)
    if kind == "qadd" or kind == "qsub":
        sym = "+" if kind == "qadd" else "-"
        return _fn("quat", f"operator{sym}(quat a, quat b)",
                   f"    return quat{{a.x {sym} b.x, a.y {sym} b.y, a.z {sym} b.z, a.w {sym} b.w}};"), ("quat",)
    if kind == "qneg":
        return _fn("quat", "operator-(quat a)", "    return quat{-a.x, -a.y, -a.z, -a.w};"), ("quat",)
    if kind == "qscale":
        return (_fn("quat", "operator*(quat a, float s)", "    return quat{a.x * s, a.y * s, a.z * s, a.w * s};") + "\n\n"
                + _fn("quat", "operator*(float s, quat a)", "    return a * s;")), ("quat",)
    if kind == "qmul":
        body = ("    return quat{a.w * b.x + b.w * a.x + a.y * b.z - b.y * a.z, a.w * b.y + b.w * a.y + a.z * b.x - b.z * a.x,\n"
                "                a.w * b.z + b.w * a.z + a.x * b.y - b.x * a.y, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};")
        return _fn("quat", "operator*(quat a, quat b)", body), ("quat",)
    if kind == "qdot":
        return _fn("float", "dot(quat a, quat b)", "    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;"), ("quat",)
    if kind == "qlength":
        return _fn("float", "length(quat a)", "    return sqrtf(dot(a, a));"), ("qdot",)
    if kind == "qnormalize":
        body = ("    // Warp returns the identity for a zero-length input\n    float l = length(a);\n    if (l > 0.0f) {\n"
                "        float inv_l = 1.0f / l;\n        return quat{a.x * inv_l, a.y * inv_l, a.z * inv_l, a.w * inv_l};\n"
                "    }\n    return quat{0.0f, 0.0f, 0.0f, 1.0f};")
        return _fn("quat", "normalize(quat a)", body), ("qlength",)
    if kind == "quat_inverse":
        return _fn("quat", "quat_inverse(quat q)", "    return quat{-q.x, -q.y, -q.z, q.w};"), ("quat",)
    if kind == "quat_from_axis_angle":
        body = ("    float half = angle * 0.5f;\n    float w = cosf(half);\n    float s = sinf(half);\n"
                "    return quat{axis.x * s, axis.y * s, axis.z * s, w};")
        return _fn("quat", "quat_from_axis_angle(float3 axis, float angle)", body), ("quat",)
    if kind == "quat_rpy":
        body = ("    float cy = cosf(yaw * 0.5f);\n    float sy = sinf(yaw * 0.5f);\n    float cr = cosf(roll * 0.5f);\n"
                "    float sr = sinf(roll * 0.5f);\n    float cp = cosf(pitch * 0.5f);\n    float sp = sinf(pitch * 0.5f);\n"
                "    float w = (cy * cr * cp + sy * sr * sp);\n    float x = (cy * sr * cp - sy * cr * sp);\n"
                "    float y = (cy * cr * sp + sy * sr * cp);\n    float z = (sy * cr * cp - cy * sr * sp);\n"
                "    return quat{x, y, z, w};")
        return _fn("quat", "quat_rpy(float roll, float pitch, float yaw)", body), ("quat",)
    if kind in ("quat_rotate", "quat_rotate_inv"):
        sym = "+" if kind == "quat_rotate" else "-"
        body = ("    float c = (2.0f * q.w * q.w - 1.0f);\n    float d = 2.0f * (q.x * x.x + q.y * x.y + q.z * x.z);\n"
                f"    return make_float3(x.x * c + q.x * d {sym} (q.y * x.z - q.z * x.y) * q.w * 2.0f,\n"
                f"                       x.y * c + q.y * d {sym} (q.z * x.x - q.x * x.z) * q.w * 2.0f,\n"
                f"                       x.z * c + q.z * d {sym} (q.x * x.y - q.y * x.x) * q.w * 2.0f);")
        return _fn("float3", f"{kind}(quat q, float3 x)", body), ("quat",)
    if kind == "quat_to_matrix":  # Warp's quat.h: the columns are the rotated axes
        body = ("    return matrix_from_cols(quat_rotate(q, make_float3(1.0f, 0.0f, 0.0f)),\n"
                "                            quat_rotate(q, make_float3(0.0f, 1.0f, 0.0f)),\n"
                "                            quat_rotate(q, make_float3(0.0f, 0.0f, 1.0f)));")
        return _fn("mat33", "quat_to_matrix(quat q)", body), ("quat_rotate", "matrix_from_cols:3")
    if kind == "skew":  # the cross-product matrix: skew(a) * b == cross(a, b)
        body = "    return mat33{{{0.0f, -a.z, a.y}, {a.z, 0.0f, -a.x}, {-a.y, a.x, 0.0f}}};"
        return _fn("mat33", "skew(float3 a)", body), ("mat:3",)
    # ---- transforms (spatial.h): p then q, like Warp's transform_t ----
    if kind == "transform":
        return "struct transform\n{\n    float3 p;  // translation\n    quat q;    // rotation\n};", ("quat",)
    if kind == "transform_vector":
        return _fn("float3", "transform_vector(transform t, float3 x)", "    return quat_rotate(t.q, x);"), ("transform", "quat_rotate")
    if kind == "transform_point":
        body = "    float3 r = quat_rotate(t.q, x);\n    return make_float3(t.p.x + r.x, t.p.y + r.y, t.p.z + r.z);"
        return _fn("float3", "transform_point(transform t, float3 x)", body), ("transform", "quat_rotate")
    if kind == "transform_multiply":
        body = ("    float3 r = quat_rotate(a.q, b.p);\n"
                "    return transform{make_float3(r.x + a.p.x, r.y + a.p.y, r.z + a.p.z), a.q * b.q};")
        return _fn("transform", "transform_multiply(transform a, transform b)", body), ("transform", "quat_rotate", "qmul")
    if kind == "transform_inverse":
        body = ("    quat q_inv = quat_inverse(t.q);\n    float3 r = quat_rotate(q_inv, t.p);\n"
                "    return transform{make_float3(-r.x, -r.y, -r.z), q_inv};")
        return _fn("transform", "transform_inverse(transform t)", body), ("transform", "quat_rotate", "quat_inverse")
    raise KeyError(name)


# Warp's 4x4 determinant (mat.h, adapted from USD), statement for statement: its second block of
# 2x2 determinants overwrites the first, and some intermediates are double; both matter for the result.
_DET4 = """    float x00, x01, x02, x03;
    float x10, x11, x12, x13;
    float x20, x21, x22, x23;
    float x30, x31, x32, x33;
    double y01, y02, y03, y12, y13, y23;
    float z00, z10, z20, z30;
    x00 = a.m[0][0];
    x01 = a.m[0][1];
    x10 = a.m[1][0];
    x11 = a.m[1][1];
    x20 = a.m[2][0];
    x21 = a.m[2][1];
    x30 = a.m[3][0];
    x31 = a.m[3][1];
    y01 = x00 * x11 - x10 * x01;
    y02 = x00 * x21 - x20 * x01;
    y03 = x00 * x31 - x30 * x01;
    y12 = x10 * x21 - x20 * x11;
    y13 = x10 * x31 - x30 * x11;
    y23 = x20 * x31 - x30 * x21;
    x02 = a.m[0][2];
    x03 = a.m[0][3];
    x12 = a.m[1][2];
    x13 = a.m[1][3];
    x22 = a.m[2][2];
    x23 = a.m[2][3];
    x32 = a.m[3][2];
    x33 = a.m[3][3];
    y01 = x02 * x13 - x12 * x03;
    y02 = x02 * x23 - x22 * x03;
    y03 = x02 * x33 - x32 * x03;
    y12 = x12 * x23 - x22 * x13;
    y13 = x12 * x33 - x32 * x13;
    y23 = x22 * x33 - x32 * x23;
    z30 = x11 * y02 - x21 * y01 - x01 * y12;
    z20 = x01 * y13 - x11 * y03 + x31 * y01;
    z10 = x21 * y03 - x31 * y02 - x01 * y23;
    z00 = x11 * y23 - x21 * y13 + x31 * y12;
    double det = x30 * z30 + x20 * z20 + x10 * z10 + x00 * z00;
    return (float)det;"""


# ---- hash grids (warp/native/hashgrid.h, float32 points) ------------------------------------------
# The struct, the cell arithmetic and the query, statement for statement as Warp's, so that a query
# visits the same points in the same order as Warp's and sums over neighbours round the same way.
# What the kernel never reaches is left out: group filtering, and the checks for a grid never built
# (main() always builds it). hash_grid_cell_coord and hash_grid_index are __host__ too: main() sorts
# the points into their cells with them.
_HASH_GRID = r"""// A wp.HashGrid as the kernel reads it (warp/native/hashgrid.h). main() builds it on the host as
// wp.HashGrid.build does and passes it by value; its arrays are in device memory.
struct HashGrid
{
    const int* point_ids;    // the points' indices sorted by cell (stably: a cell's points in index order)
    const int* cell_starts;  // per cell: where its points start in point_ids (0 for an empty cell)
    const int* cell_ends;    // per cell: one past where they end (0 for an empty cell)
    int dim_x, dim_y, dim_z;  // cells per axis: the unbounded grid of cells wraps onto these
    float cell_width_inv;    // 1 / cell width, computed in float as Warp does
};

// A position's cell coordinate along one axis, rounded down; values beyond the int range clamp to
// [INT_MIN, INT_MAX - 1] (so a query can step one cell past its end) and NaN maps to 0, as in Warp.
__host__ __device__ inline int hash_grid_cell_coord(float v)
{
#if defined(__CUDA_ARCH__)
    return min(__float2int_rd(v), 2147483646);  // rounds down, saturates, NaN -> 0 in one instruction
#else
    const float c = floorf(v);
    // float(INT_MAX) rounds up to 2^31: compare with the exact bounds -2^31 and 2^31
    if (c >= 2147483648.0f)
        return 2147483646;
    if (c >= -2147483648.0f)
        return (int)c;
    if (c < -2147483648.0f)
        return -2147483647 - 1;
    return 0;  // NaN
#endif
}

// The physical cell of cell (x, y, z): coordinates wrap modulo the grid's dims, negative ones too
__host__ __device__ inline int hash_grid_index(const HashGrid& grid, int x, int y, int z)
{
    int cx = x % grid.dim_x;
    int cy = y % grid.dim_y;
    int cz = z % grid.dim_z;
    if (cx < 0)
        cx += grid.dim_x;
    if (cy < 0)
        cy += grid.dim_y;
    if (cz < 0)
        cz += grid.dim_z;
    return cz * (grid.dim_x * grid.dim_y) + cy * grid.dim_x + cx;
}

// The cell a point falls in
__host__ __device__ inline int hash_grid_index(const HashGrid& grid, float3 p)
{
    return hash_grid_index(grid, hash_grid_cell_coord(p.x * grid.cell_width_inv),
                           hash_grid_cell_coord(p.y * grid.cell_width_inv),
                           hash_grid_cell_coord(p.z * grid.cell_width_inv));
}"""

_HASH_GRID_QUERY = r"""// A neighbour query in progress (Warp's hash_grid_query_t): the box of cells within the radius of a
// position, the cell being visited, and the next of that cell's points.
struct HashGridQuery
{
    int x_start, y_start, z_start;  // the box of cells, both ends included
    int x_end, y_end, z_end;
    int x, y, z;     // the cell being visited
    int cell_index;  // the next position in point_ids of its points
    int cell_end;    // one past its last
    HashGrid grid;
};

__device__ __forceinline__ void hash_grid_query_set_cell(HashGridQuery& query)
{
    const int cell = hash_grid_index(query.grid, query.x, query.y, query.z);
    query.cell_index = query.grid.cell_starts[cell];
    query.cell_end = query.grid.cell_ends[cell];
}

// A range spanning a whole axis visits each of its cells once (compared in 64 bits: start + dim - 1
// would overflow near INT_MAX)
__device__ __forceinline__ int hash_grid_query_end(int start, int end, int dim)
{
    return (long long)end - (long long)start >= (long long)dim ? start + (dim - 1) : end;
}

// wp.hash_grid_query(grid, pos, radius): every point of the cells the box [pos - radius, pos + radius]
// touches (no distance test: the kernel makes its own).
__device__ __forceinline__ HashGridQuery hash_grid_query(const HashGrid& grid, float3 pos, float radius)
{
    HashGridQuery query;
    query.grid = grid;
    const float cell_width_inv = grid.cell_width_inv;
    query.x_start = hash_grid_cell_coord((pos.x - radius) * cell_width_inv);
    query.y_start = hash_grid_cell_coord((pos.y - radius) * cell_width_inv);
    query.z_start = hash_grid_cell_coord((pos.z - radius) * cell_width_inv);
    query.x_end = hash_grid_query_end(query.x_start, hash_grid_cell_coord((pos.x + radius) * cell_width_inv), grid.dim_x);
    query.y_end = hash_grid_query_end(query.y_start, hash_grid_cell_coord((pos.y + radius) * cell_width_inv), grid.dim_y);
    query.z_end = hash_grid_query_end(query.z_start, hash_grid_cell_coord((pos.z + radius) * cell_width_inv), grid.dim_z);
    query.x = query.x_start;
    query.y = query.y_start;
    query.z = query.z_start;
    hash_grid_query_set_cell(query);
    return query;
}

// The query's next point, into `index`; false once every cell is visited. Warp's order: a cell's
// points in point_ids order, cells x fastest, then y, then z. Sums over neighbours depend on it.
__device__ __forceinline__ bool hash_grid_query_next(HashGridQuery& query, int& index)
{
    while (true) {
        if (query.cell_index < query.cell_end) {
            index = query.grid.point_ids[query.cell_index++];
            return true;
        }
        query.x++;
        if (query.x > query.x_end) {
            query.x = query.x_start;
            query.y++;
        }
        if (query.y > query.y_end) {
            query.y = query.y_start;
            query.z++;
        }
        if (query.z > query.z_end)
            return false;
        hash_grid_query_set_cell(query);
    }
}"""

_HASH_GRID_POINT_ID = r"""// wp.hash_grid_point_id(grid, i): the i-th point in cell order (threads launched over it visit the
// points cell by cell, so neighbouring threads read neighbouring cells)
__device__ __forceinline__ int hash_grid_point_id(const HashGrid& grid, int index)
{
    return grid.point_ids[index];
}"""

HASH_GRID_SNIPPETS = {  # snippet name -> (source, dependencies)
    "hash_grid": (_HASH_GRID, ()),
    "hash_grid_query": (_HASH_GRID_QUERY, ("hash_grid",)),
    "hash_grid_point_id": (_HASH_GRID_POINT_ID, ("hash_grid",)),
}


# ---- meshes (warp/native/mesh.h, intersect.h) -----------------------------------------------------
# The per-triangle arithmetic (closest point, sliver test, ray/triangle test, sign rules) is Warp's,
# statement for statement, so that distances, hits and signs round as Warp's do. The bounding volume
# hierarchy is this program's own (main() builds it by the surface area heuristic), not Warp's: the
# nearest point, its distance and side, and a ray's nearest hit do not depend on how the triangles are
# grouped, only how fast they are found. Which of several equally near triangles is returned (face, u, v, a ray's
# sign and normal at an edge) may differ from Warp's; the values above do not.
_MESH = r"""// A wp.Mesh as the kernel reads it: its triangles and a bounding volume hierarchy (BVH) over them.
// main() builds both on the host (build_rock_mesh) and passes the struct by value; its arrays are in
// device memory.
struct Mesh
{
    const float3* points;      // vertex positions
    const int* indices;        // three vertex indices per triangle, counter-clockwise seen from outside
    const BvhNode* nodes;  // the BVH, its root at 0
    const int* tri_order;      // triangle indices in leaf order
    const float3* tri_lowers;  // each triangle's box (its corners' minimum and maximum, as Warp's
    const float3* tri_uppers;  // mesh.lowers / uppers), in leaf order: what a box query tests
    int num_points;
    int num_tris;
    float average_edge_length;  // as Warp computes it: sign_normal's tolerance is a fraction of it
};"""

_MESH_TRIANGLE = r"""// The corners of triangle `face`, in its winding order
__device__ __forceinline__ void mesh_triangle(const Mesh& mesh, int face, float3& p, float3& q, float3& r)
{
    p = mesh.points[mesh.indices[face * 3 + 0]];
    q = mesh.points[mesh.indices[face * 3 + 1]];
    r = mesh.points[mesh.indices[face * 3 + 2]];
}"""

_BOX_DISTANCE_SQ = r"""// Squared distance from p to the box [lower, upper], 0 inside it (Warp's distance_to_aabb_sq)
__device__ __forceinline__ float box_distance_sq(float3 p, float3 lower, float3 upper)
{
    const float dx = fminf(upper.x, fmaxf(lower.x, p.x)) - p.x;
    const float dy = fminf(upper.y, fmaxf(lower.y, p.y)) - p.y;
    const float dz = fminf(upper.z, fmaxf(lower.z, p.z)) - p.z;
    return dx * dx + dy * dy + dz * dz;
}"""

_TRIANGLE_CLOSEST_POINT = r"""// The point of triangle (a, b, c) nearest p, as the barycentric weights (u, v) of a and b (c's is
// 1 - u - v): Ericson's tests of the Voronoi regions of the corners, the edges and the face (Real-Time
// Collision Detection, 5.1.5), as Warp's closest_point_to_triangle writes them, so they round alike.
__device__ inline float2 triangle_closest_point(float3 a, float3 b, float3 c, float3 p)
{
    const float3 ab = b - a;
    const float3 ac = c - a;
    const float3 ap = p - a;
    const float d1 = dot(ab, ap);
    const float d2 = dot(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f)
        return make_float2(1.0f, 0.0f);  // corner a
    const float3 bp = p - b;
    const float d3 = dot(ab, bp);
    const float d4 = dot(ac, bp);
    if (d3 >= 0.0f && d4 <= d3)
        return make_float2(0.0f, 1.0f);  // corner b
    const float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {  // edge ab
        const float v = d1 / (d1 - d3);
        return make_float2(1.0f - v, v);
    }
    const float3 cp = p - c;
    const float d5 = dot(ab, cp);
    const float d6 = dot(ac, cp);
    if (d6 >= 0.0f && d5 <= d6)
        return make_float2(0.0f, 0.0f);  // corner c
    const float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {  // edge ac
        const float w = d2 / (d2 - d6);
        return make_float2(1.0f - w, 0.0f);
    }
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {  // edge bc
        const float w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        const float v = 1.0f - w;
        return make_float2(1.0f - v - w, v);
    }
    const float denom = 1.0f / (va + vb + vc);  // inside the face
    const float v = vb * denom;
    const float w = vc * denom;
    return make_float2(1.0f - v - w, v);
}"""

_MESH_NEAREST_FACE = r"""// The triangle nearest `point` at a distance strictly below max_dist (false if none is): its index and
// the barycentric weights u, v of its first two corners at the nearest point. Per triangle as Warp's
// mesh_query_point (mesh.h): slivers are skipped (Warp skips them), the nearest point is u p + v q + w r
// with w = 1 - u - v, and a triangle must be strictly nearer than the best so far. The BVH is searched
// depth first, the nearer child first, so that the best distance found early prunes the farther boxes:
// the node being visited stays in registers, and the farther child is stacked with what a visit needs
// (its first child or slot, its count, its box's squared distance), so no node is loaded twice.
__device__ inline bool mesh_nearest_face(const Mesh& mesh, float3 point, float max_dist, int& face, float& u, float& v)
{
    float best_sq = max_dist * max_dist;
    int best_face = 0;
    float best_v = 0.0f;
    float best_w = 0.0f;
    int stack_first[BVH_STACK_SIZE], stack_count[BVH_STACK_SIZE];
    float stack_sq[BVH_STACK_SIZE];
    int top = 0;
    const BvhNode root = load_node(mesh.nodes, 0);
    int first = root.first, count = root.count;  // the node being visited
    bool visiting = !(box_distance_sq(point, root.lower, root.upper) > best_sq);
    while (visiting) {
        if (count > 0) {
            for (int slot = first; slot < first + count; ++slot) {
                const int tri = mesh.tri_order[slot];
                float3 p, q, r;
                mesh_triangle(mesh, tri, p, q, r);
                const float3 e0 = q - p;
                const float3 e1 = r - p;
                const float3 e2 = r - q;
                if (length(cross(e0, e1)) / (dot(e0, e0) + dot(e1, e1) + dot(e2, e2)) < 1.e-6f)
                    continue;  // a sliver
                const float2 bary = triangle_closest_point(p, q, r, point);
                const float w = 1.0f - bary.x - bary.y;
                const float3 c = bary.x * p + bary.y * q + w * r;
                const float dist_sq = dot(c - point, c - point);
                if (dist_sq < best_sq) {
                    best_sq = dist_sq;
                    best_face = tri;
                    best_v = bary.y;
                    best_w = w;
                }
            }
        } else {
            const BvhNode left = load_node(mesh.nodes, first);
            const BvhNode right = load_node(mesh.nodes, first + 1);
            const float left_sq = box_distance_sq(point, left.lower, left.upper);
            const float right_sq = box_distance_sq(point, right.lower, right.upper);
            // the nearer child is searched next (the right one on a tie); the farther waits on the stack
            const bool left_nearer = left_sq < right_sq;
            const float near_sq = left_nearer ? left_sq : right_sq;
            const float far_sq = left_nearer ? right_sq : left_sq;
            if (near_sq < best_sq) {  // near_sq <= far_sq: when the nearer is out, both are
                if (far_sq < best_sq) {
                    const BvhNode& far = left_nearer ? right : left;
                    stack_first[top] = far.first;
                    stack_count[top] = far.count;
                    stack_sq[top++] = far_sq;
                }
                const BvhNode& near = left_nearer ? left : right;
                first = near.first;
                count = near.count;
                continue;
            }
        }
        // the next stacked node: it was nearer than the best when pushed; a nearer triangle may have been
        // found since
        while (top > 0 && stack_sq[top - 1] > best_sq)
            --top;
        if (top == 0)
            break;
        --top;
        first = stack_first[top];
        count = stack_count[top];
    }
    if (!(best_sq < max_dist * max_dist))
        return false;
    face = best_face;
    u = 1.0f - best_v - best_w;  // as Warp: from v and w, not the u the triangle test returned
    v = best_v;
    return true;
}"""

_MESH_QUERY_POINT_T = r"""// What wp.mesh_query_point* return (Warp's mesh_query_point_t): whether a face lies strictly within
// max_dist (result), the point's side of the surface (sign: < 0 inside, > 0 outside; 0 from a query
// that computes none), the nearest face and the barycentric weights u, v of its first two corners at
// the nearest point (wp.mesh_eval_position(mesh, face, u, v) is that point). Without a result the
// other members stay 0, as in Warp.
struct MeshQueryPoint
{
    bool result;
    float sign;
    int face;
    float u;
    float v;
};"""

_MESH_QUERY_POINT_NO_SIGN = r"""// wp.mesh_query_point_no_sign(mesh, point, max_dist): the nearest point of the surface, no sign
__device__ inline MeshQueryPoint mesh_query_point_no_sign(const Mesh& mesh, float3 point, float max_dist)
{
    MeshQueryPoint query = {};
    query.result = mesh_nearest_face(mesh, point, max_dist, query.face, query.u, query.v);
    return query;
}"""

_MESH_RAY = r"""// A ray's nearest hit: where along the ray (t, in multiples of dir's length), the barycentric weights
// u, v of the triangle's first two corners there, the triangle, and the watertight test's determinant
// (det > 0: the ray meets the triangle's front, < 0: its back)
struct MeshRayHit
{
    float t;
    float u;
    float v;
    float det;
    int face;
};

// One axis of the slab test: clip [t_min, t_max] to where the ray is between the box's two planes
// across this axis; a ray parallel to them (dir 0: rcp_dir infinite) only needs to start between them
__device__ __forceinline__ bool ray_slab(float start, float dir, float rcp_dir, float lower, float upper,
                                         float& t_min, float& t_max)
{
    if (dir == 0.0f)
        return start >= lower && start <= upper;
    const float t0 = (lower - start) * rcp_dir;
    const float t1 = (upper - start) * rcp_dir;
    t_min = fmaxf(fminf(t0, t1), t_min);
    t_max = fminf(fmaxf(t0, t1), t_max);
    return true;
}

// Where the ray start + t dir enters the box [lower, upper] (negative when it starts inside), or false
// when it misses the box or the box lies behind it (Warp's intersect_ray_aabb_robust)
__device__ __forceinline__ bool ray_box_entry(float3 start, float3 dir, float3 rcp_dir, float3 lower, float3 upper,
                                              float& t_enter)
{
    float t_min = -INFINITY;
    float t_max = INFINITY;
    if (!ray_slab(start.x, dir.x, rcp_dir.x, lower.x, upper.x, t_min, t_max)
        || !ray_slab(start.y, dir.y, rcp_dir.y, lower.y, upper.y, t_min, t_max)
        || !ray_slab(start.z, dir.z, rcp_dir.z, lower.z, upper.z, t_min, t_max))
        return false;
    if (!(t_max >= 0.0f && t_max >= t_min))
        return false;
    t_enter = t_min;
    return true;
}

// a * b - c * d with the rounding error of c * d put back (Kahan's fma trick; Warp's diff_product)
__device__ __forceinline__ float diff_product(float a, float b, float c, float d)
{
    const float cd = c * d;
    const float diff = fmaf(a, b, -cd);
    const float error = fmaf(-c, d, cd);
    return diff + error;
}

// Whether the ray start + t dir meets triangle (a, b, c), and where: Woop, Benthin and Wald's
// watertight test (JCGT 2013), as Warp's intersect_ray_tri_woop writes it. It is watertight: a ray
// through an edge or a vertex meets at least one of the triangles sharing it, never slips between
// them. t may be negative (the caller keeps t >= 0); u, v weight a and b; det's sign is the side hit.
__device__ inline bool ray_triangle_hit(float3 start, float3 dir, float3 a, float3 b, float3 c,
                                        float& t, float& u, float& v, float& det)
{
    // shear and scale space so that the ray runs along +z from the origin: kz is dir's longest axis
    // (the first of equals), kx and ky follow it, swapped for a negative kz to keep the winding
    int kz = 0;
    if (fabsf(dir.y) > fabsf(dir.x))
        kz = 1;
    if (fabsf(dir.z) > fabsf(component(dir, kz)))
        kz = 2;
    int kx = kz + 1 == 3 ? 0 : kz + 1;
    int ky = kx + 1 == 3 ? 0 : kx + 1;
    if (component(dir, kz) < 0.0f) {
        const int swap = kx;
        kx = ky;
        ky = swap;
    }
    const float Sx = component(dir, kx) / component(dir, kz);
    const float Sy = component(dir, ky) / component(dir, kz);
    const float Sz = 1.0f / component(dir, kz);

    const float3 A = a - start;
    const float3 B = b - start;
    const float3 C = c - start;
    const float Ax = component(A, kx) - Sx * component(A, kz);
    const float Ay = component(A, ky) - Sy * component(A, kz);
    const float Bx = component(B, kx) - Sx * component(B, kz);
    const float By = component(B, ky) - Sy * component(B, kz);
    const float Cx = component(C, kx) - Sx * component(C, kz);
    const float Cy = component(C, ky) - Sy * component(C, kz);

    // scaled barycentric coordinates: which side of each edge the ray passes
    float U = diff_product(Cx, By, Cy, Bx);
    float V = diff_product(Ax, Cy, Ay, Cx);
    float W = diff_product(Bx, Ay, By, Ax);
    if (U == 0.0f || V == 0.0f || W == 0.0f) {
        // on an edge: decide in double (float products are exact there), so neighbours agree
        U = (float)((double)Cx * (double)By - (double)Cy * (double)Bx);
        V = (float)((double)Ax * (double)Cy - (double)Ay * (double)Cx);
        W = (float)((double)Bx * (double)Ay - (double)By * (double)Ax);
    }
    if ((U < 0.0f || V < 0.0f || W < 0.0f) && (U > 0.0f || V > 0.0f || W > 0.0f))
        return false;  // outside an edge
    det = U + V + W;
    if (det == 0.0f)
        return false;  // the ray runs in the triangle's plane

    const float Az = Sz * component(A, kz);
    const float Bz = Sz * component(B, kz);
    const float Cz = Sz * component(C, kz);
    const float T = U * Az + V * Bz + W * Cz;  // det * t
    // behind the start: T's sign differs from det's (compared on the sign bits, as Warp does)
    if (__int_as_float(__float_as_int(T) ^ (__float_as_int(det) & 0x80000000)) < 0.0f)
        return false;
    const float rcp_det = 1.0f / det;
    u = U * rcp_det;
    v = V * rcp_det;
    t = T * rcp_det;
    return true;
}

// The nearest hit of the ray start + t dir with 0 <= t < max_t (false if there is none). As Warp's
// mesh_query_ray, a hit must be strictly nearer than the best so far. The BVH is searched depth first
// with a small stack, the child the ray enters first on top: its hits prune the farther boxes.
__device__ inline bool mesh_nearest_hit(const Mesh& mesh, float3 start, float3 dir, float max_t, MeshRayHit& hit)
{
    const float3 rcp_dir = make_float3(1.0f / dir.x, 1.0f / dir.y, 1.0f / dir.z);
    int stack[BVH_STACK_SIZE];
    float entry[BVH_STACK_SIZE];  // where the ray enters each stacked node's box
    int count = 0;
    float t_root;
    const BvhNode root = load_node(mesh.nodes, 0);
    if (ray_box_entry(start, dir, rcp_dir, root.lower, root.upper, t_root) && t_root < max_t) {
        stack[0] = 0;
        entry[0] = t_root;
        count = 1;
    }
    bool found = false;
    hit = {max_t, 0.0f, 0.0f, 0.0f, 0};  // t: nearer than max_t, then than the nearest hit so far
    while (count > 0) {
        --count;
        if (!(entry[count] < hit.t))
            continue;  // a nearer hit was found since this node was pushed
        const BvhNode node = load_node(mesh.nodes, stack[count]);
        if (node.count > 0) {
            for (int slot = node.first; slot < node.first + node.count; ++slot) {
                const int tri = mesh.tri_order[slot];
                float3 p, q, r;
                mesh_triangle(mesh, tri, p, q, r);
                float t, u, v, det;
                if (ray_triangle_hit(start, dir, p, q, r, t, u, v, det) && t < hit.t && t >= 0.0f) {
                    hit.t = t;
                    hit.u = u;
                    hit.v = v;
                    hit.det = det;
                    hit.face = tri;
                    found = true;
                }
            }
        } else {
            const BvhNode left = load_node(mesh.nodes, node.first);
            const BvhNode right = load_node(mesh.nodes, node.first + 1);
            float t_left, t_right;
            const bool enters_left = ray_box_entry(start, dir, rcp_dir, left.lower, left.upper, t_left) && t_left < hit.t;
            const bool enters_right = ray_box_entry(start, dir, rcp_dir, right.lower, right.upper, t_right) && t_right < hit.t;
            // the child entered first goes on top of the stack
            const bool left_first = enters_left && (!enters_right || t_left < t_right);
            if (left_first ? enters_right : enters_left) {
                stack[count] = left_first ? node.first + 1 : node.first;
                entry[count++] = left_first ? t_right : t_left;
            }
            if (left_first || enters_right) {
                stack[count] = left_first ? node.first : node.first + 1;
                entry[count++] = left_first ? t_left : t_right;
            }
        }
    }
    return found;
}"""

_MESH_QUERY_POINT = r"""// Inside (-1) or outside (+1) the closed mesh, decided as Warp decides it for wp.mesh_query_point
// (mesh.h, mesh_query_inside_ray_tracing): a ray from the point along +x, +y and +z; one whose nearest
// hit is the back of a triangle (it leaves the surface there) votes inside, one that hits a front or
// nothing votes outside, and two votes of three make the point inside.
__device__ inline float mesh_inside_sign(const Mesh& mesh, float3 point)
{
    int votes = 0;
    for (int axis = 0; axis < 3; ++axis) {
        const float3 dir = make_float3((float)(axis == 0), (float)(axis == 1), (float)(axis == 2));
        MeshRayHit hit;
        if (mesh_nearest_hit(mesh, point, dir, INFINITY, hit) && hit.det < 0.0f)
            ++votes;
    }
    return votes >= 2 ? -1.0f : 1.0f;
}

// wp.mesh_query_point(mesh, point, max_dist): the nearest point of the surface, and the point's side
__device__ inline MeshQueryPoint mesh_query_point(const Mesh& mesh, float3 point, float max_dist)
{
    MeshQueryPoint query = {};
    query.result = mesh_nearest_face(mesh, point, max_dist, query.face, query.u, query.v);
    if (query.result)
        query.sign = mesh_inside_sign(mesh, point);
    return query;
}"""

_MESH_QUERY_POINT_SIGN_WINDING_NUMBER = r"""// wp.mesh_query_point_sign_winding_number(mesh, point, max_dist, accuracy, threshold). Warp decides the
// sign by the winding number only for a mesh built with support_winding_number=True; this one is built
// as wp.Mesh builds meshes by default (and as the Warp reference built it), without the winding-number
// data, and for such a mesh Warp falls back to wp.mesh_query_point's three-ray vote (mesh.h): so does
// this. For a point off the surface of a closed mesh both give the same side. The accuracy and the
// threshold only steer the winding number: unused.
__device__ inline MeshQueryPoint mesh_query_point_sign_winding_number(const Mesh& mesh, float3 point, float max_dist,
                                                                      float /* accuracy */ = 2.0f,
                                                                      float /* threshold */ = 0.5f)
{
    return mesh_query_point(mesh, point, max_dist);
}"""

_MESH_QUERY_POINT_SIGN_NORMAL = r"""// wp.mesh_query_point_sign_normal(mesh, point, max_dist, epsilon): the nearest point, and the point's
// side by the angle-weighted normal of the nearest feature (Baerentzen and Aanaes 2005), as Warp's
// mesh.h computes it: faces whose distance is within epsilon * the average edge length of the nearest
// count as equally near, each normal weighted by the angle the face spans at the nearest feature (its
// corner angle at a vertex, pi at an edge, 2 pi inside the face); the point is outside (+1) when it
// lies in front of their sum, else inside (-1). For a point off the surface the faces sharing its
// nearest feature decide, in whatever order they are found: the same side as Warp's.
__device__ inline MeshQueryPoint mesh_query_point_sign_normal(const Mesh& mesh, float3 point, float max_dist,
                                                              float epsilon = 1e-3f)
{
    const float eps_dist = mesh.average_edge_length * epsilon;
    const float eps_dist_sq = eps_dist * eps_dist;
    float min_dist = max_dist;
    int min_face = 0;
    float min_v = 0.0f;
    float min_w = 0.0f;
    float3 normal_sum = make_float3(0.0f, 0.0f, 0.0f);
    int stack[BVH_STACK_SIZE];
    int count = 0;
    stack[count++] = 0;
    while (count > 0) {
        const BvhNode node = load_node(mesh.nodes, stack[--count]);
        if (box_distance_sq(point, node.lower, node.upper) > (min_dist + eps_dist) * (min_dist + eps_dist))
            continue;
        if (node.count > 0) {
            for (int slot = node.first; slot < node.first + node.count; ++slot) {
                const int tri = mesh.tri_order[slot];
                float3 p, q, r;
                mesh_triangle(mesh, tri, p, q, r);
                const float3 e0 = q - p;
                const float3 e1 = r - p;
                const float3 e2 = r - q;
                const float3 normal = cross(e0, e1);
                const float e0_sq = dot(e0, e0);
                const float e1_sq = dot(e1, e1);
                const float e2_sq = dot(e2, e2);
                if (length(normal) / (e0_sq + e1_sq + e2_sq) < 1.e-6f)
                    continue;  // a sliver
                const float2 bary = triangle_closest_point(p, q, r, point);
                const float w = 1.0f - bary.x - bary.y;
                const float3 c = bary.x * p + bary.y * q + w * r;
                const float dist = sqrtf(dot(c - point, c - point));
                if (!(dist < min_dist + eps_dist))
                    continue;
                // the angle this face spans at the nearest feature
                const float3 cp = c - p;
                const float3 cq = c - q;
                const float3 cr = c - r;
                const float cp_sq = dot(cp, cp);
                const float cq_sq = dot(cq, cq);
                const float cr_sq = dot(cr, cr);
                float weight;
                if (cp_sq < eps_dist_sq) {
                    weight = acosf(dot(normalize(e0), normalize(e1)));  // at corner p
                } else if (cq_sq < eps_dist_sq) {
                    weight = acosf(dot(normalize(e2), normalize(-e0)));  // at corner q
                } else if (cr_sq < eps_dist_sq) {
                    weight = acosf(dot(normalize(-e1), normalize(-e2)));  // at corner r
                } else {
                    // on an edge when within eps of its line (squared distances times the edge's squared length)
                    const float e0cp = dot(e0, cp);
                    const float e2cq = dot(e2, cq);
                    const float e1cp = dot(e1, cp);
                    const bool on_edge = cp_sq * e0_sq - e0cp * e0cp < eps_dist_sq * e0_sq
                                         || cq_sq * e2_sq - e2cq * e2cq < eps_dist_sq * e2_sq
                                         || cp_sq * e1_sq - e1cp * e1cp < eps_dist_sq * e1_sq;
                    weight = on_edge ? 3.14159265359f : 2.0f * 3.14159265359f;
                }
                if (dist > min_dist - eps_dist) {  // as near as the nearest so far: its normal joins the sum
                    normal_sum = normal_sum + weight * normalize(normal);
                    if (dist < min_dist) {
                        min_dist = dist;
                        min_face = tri;
                        min_v = bary.y;
                        min_w = w;
                    }
                } else {  // nearer than every face so far: the sum starts again from this one
                    min_dist = dist;
                    min_face = tri;
                    min_v = bary.y;
                    min_w = w;
                    normal_sum = weight * normalize(normal);
                }
            }
        } else {
            const BvhNode left = load_node(mesh.nodes, node.first);
            const BvhNode right = load_node(mesh.nodes, node.first + 1);
            const float left_sq = box_distance_sq(point, left.lower, left.upper);
            const float right_sq = box_distance_sq(point, right.lower, right.upper);
            const float reach_sq = (min_dist + eps_dist) * (min_dist + eps_dist);
            const bool left_nearer = left_sq < right_sq;  // the nearer child on top of the stack
            if ((left_nearer ? right_sq : left_sq) < reach_sq)
                stack[count++] = left_nearer ? node.first + 1 : node.first;
            if ((left_nearer ? left_sq : right_sq) < reach_sq)
                stack[count++] = left_nearer ? node.first : node.first + 1;
        }
    }
    MeshQueryPoint query = {};
    if (min_dist < max_dist) {
        query.result = true;
        query.face = min_face;
        query.u = 1.0f - min_v - min_w;
        query.v = min_v;
        float3 p, q, r;
        mesh_triangle(mesh, min_face, p, q, r);
        const float3 nearest = p * query.u + q * query.v + r * min_w;
        query.sign = dot(normal_sum, point - nearest) > 0.0f ? 1.0f : -1.0f;
    }
    return query;
}"""

_MESH_QUERY_RAY = r"""// What wp.mesh_query_ray returns (Warp's mesh_query_ray_t): whether the ray hits the mesh within
// max_t (result), the hit's determinant (sign: > 0 on a triangle's front, < 0 on its back), the face,
// where along the ray (t, in multiples of dir's length: the hit is start + t * dir), the barycentric
// weights u, v of the face's first two corners there, and its unit normal by winding order. Without a
// hit the other members stay 0, as in Warp.
struct MeshQueryRay
{
    bool result;
    float sign;
    int face;
    float t;
    float u;
    float v;
    float3 normal;
};

// wp.mesh_query_ray(mesh, start, dir, max_t): the nearest hit of start + t dir with 0 <= t < max_t
__device__ inline MeshQueryRay mesh_query_ray(const Mesh& mesh, float3 start, float3 dir, float max_t)
{
    MeshQueryRay query = {};
    MeshRayHit hit;
    if (mesh_nearest_hit(mesh, start, dir, max_t, hit)) {
        float3 p, q, r;
        mesh_triangle(mesh, hit.face, p, q, r);
        query.result = true;
        query.sign = hit.det;
        query.face = hit.face;
        query.t = hit.t;
        query.u = hit.u;
        query.v = hit.v;
        query.normal = normalize(cross(q - p, r - p));
    }
    return query;
}"""

_MESH_EVAL_POSITION = r"""// wp.mesh_eval_position(mesh, face, u, v): the point of triangle `face` with barycentric weights u and v
// of its first two corners (1 - u - v of the third), summed in Warp's order
__device__ __forceinline__ float3 mesh_eval_position(const Mesh& mesh, int face, float u, float v)
{
    float3 p, q, r;
    mesh_triangle(mesh, face, p, q, r);
    return p * u + q * v + r * (1.0f - u - v);
}"""

_MESH_EVAL_FACE_NORMAL = r"""// wp.mesh_eval_face_normal(mesh, face): the unit normal of triangle `face`, by its winding (outward here)
__device__ __forceinline__ float3 mesh_eval_face_normal(const Mesh& mesh, int face)
{
    float3 p, q, r;
    mesh_triangle(mesh, face, p, q, r);
    return normalize(cross(q - p, r - p));
}"""

# mesh_query_aabb_next and bvh_query_next each carry the same seven lines of walk (pop or descend):
# merged into one templated walk taking the box test as a lambda, the BVH queries ran 15-48% slower on
# the H100 (notes/design.md, session 31), so the two stay apart.
_MESH_QUERY_AABB = r"""// wp.mesh_query_aabb(mesh, lower, upper) in progress (Warp's mesh_query_aabb_t): the box, the BVH
// nodes still to visit, and the leaf being read.
struct MeshQueryAabb
{
    Mesh mesh;
    float3 lower, upper;
    int node;        // the node to test next; -1: the one on top of the stack
    BvhStack stack;  // the nodes to visit after it
    int count;       // entries on the stack
    int leaf_next, leaf_end;  // the leaf's triangles still to test, tri_order[leaf_next, leaf_end)
};

__device__ __forceinline__ MeshQueryAabb mesh_query_aabb(const Mesh& mesh, float3 lower, float3 upper)
{
    MeshQueryAabb query;
    query.mesh = mesh;
    query.lower = lower;
    query.upper = upper;
    query.node = 0;  // the root
    query.stack = bvh_shared_stack();
    query.count = 0;
    query.leaf_next = query.leaf_end = 0;
    return query;
}

// wp.mesh_query_aabb_next(query, face): the next triangle whose box (its three corners' bounds, which
// main() computes once per triangle, as Warp keeps them) overlaps the query's box, into `face`; false
// once none is left. This program's BVH boxes are padded a hair (build_rock_mesh): they only decide
// which triangles are tested.
__device__ inline bool mesh_query_aabb_next(MeshQueryAabb& query, int& face)
{
    while (true) {
        while (query.leaf_next < query.leaf_end) {
            const int slot = query.leaf_next++;
            if (boxes_overlap(query.lower, query.upper, query.mesh.tri_lowers[slot], query.mesh.tri_uppers[slot])) {
                face = query.mesh.tri_order[slot];
                return true;
            }
        }
        if (query.node < 0) {
            if (query.count == 0)
                return false;
            query.node = query.stack[--query.count];
        }
        const BvhNode node = load_node(query.mesh.nodes, query.node);
        query.node = -1;
        if (!boxes_overlap(query.lower, query.upper, node.lower, node.upper))
            continue;
        if (node.count > 0) {
            query.leaf_next = node.first;
            query.leaf_end = node.first + node.count;
        } else {  // the left child next, without a trip through the stack; the right one after it
            query.stack[query.count++] = node.first + 1;
            query.node = node.first;
        }
    }
}"""

MESH_SNIPPETS = {  # snippet name -> (source, dependencies)
    "mesh": (_MESH, ("bvh_node",)),
    "mesh_triangle": (_MESH_TRIANGLE, ("mesh",)),
    "box_distance_sq": (_BOX_DISTANCE_SQ, ()),
    "triangle_closest_point": (_TRIANGLE_CLOSEST_POINT, ("vsub:3", "dot:3")),
    "mesh_nearest_face": (_MESH_NEAREST_FACE, ("mesh_triangle", "box_distance_sq", "triangle_closest_point", "vsub:3",
                                               "vadd:3", "vscale:3", "dot:3", "length:3", "cross")),
    "mesh_query_point_t": (_MESH_QUERY_POINT_T, ()),
    "mesh_query_point_no_sign": (_MESH_QUERY_POINT_NO_SIGN, ("mesh_query_point_t", "mesh_nearest_face")),
    "mesh_ray": (_MESH_RAY, ("mesh_triangle", "vsub:3", "vcomp:3")),
    "mesh_query_point": (_MESH_QUERY_POINT, ("mesh_query_point_t", "mesh_nearest_face", "mesh_ray")),
    "mesh_query_point_sign_winding_number": (_MESH_QUERY_POINT_SIGN_WINDING_NUMBER, ("mesh_query_point",)),
    "mesh_query_point_sign_normal": (_MESH_QUERY_POINT_SIGN_NORMAL, ("mesh_query_point_t", "mesh_triangle", "box_distance_sq",
                                                                     "triangle_closest_point", "vsub:3", "vadd:3", "vscale:3",
                                                                     "dot:3", "length:3", "cross", "normalize:3", "vneg:3")),
    "mesh_query_ray": (_MESH_QUERY_RAY, ("mesh_ray", "mesh_triangle", "cross", "normalize:3")),
    "mesh_eval_position": (_MESH_EVAL_POSITION, ("mesh_triangle", "vadd:3", "vscale:3")),
    "mesh_eval_face_normal": (_MESH_EVAL_FACE_NORMAL, ("mesh_triangle", "vsub:3", "cross", "normalize:3")),
    "mesh_query_aabb": (_MESH_QUERY_AABB, ("mesh", "boxes_overlap", "bvh_stack")),
}


# ---- BVHs over boxes (warp/native/bvh.h, intersect.h) ----------------------------------------------
# The box and slab tests are Warp's (intersect_aabb_aabb, intersect_ray_aabb), so the same items are
# found. The tree is this program's own (main() builds it: a median split), not Warp's: which items a
# query finds does not depend on how they are grouped, the order it finds them in does; a sum over
# them rounds in that order (equal to Warp's within the tolerance, not bit for bit).
_BVH = r"""// A wp.Bvh as the kernel reads it: one box per item and a bounding volume hierarchy over the boxes.
// main() builds both on the host (build_points_bvh) and passes the struct by value; its arrays are in
// device memory.
struct Bvh
{
    const float3* lowers;   // each item's box
    const float3* uppers;
    const BvhNode* nodes;   // the tree, its root at 0
    const int* item_order;  // item indices in leaf order
};"""

_FFT_BUTTERFLY = r"""// One radix-2 butterfly of Warp's tile FFT (tile_fft.h), in its arithmetic: hi *= w, then
// (lo, hi) = (lo + hi, lo - hi)
template <typename Complex>
__device__ __forceinline__ void fft_butterfly(Complex& lo, Complex& hi, Complex w)
{
    const auto t_re = w.x * hi.x - w.y * hi.y;
    const auto t_im = w.x * hi.y + w.y * hi.x;
    hi = {lo.x - t_re, lo.y - t_im};
    lo = {lo.x + t_re, lo.y + t_im};
}"""

_TILE_SORT_PAIRS = r"""#include <type_traits>

// the power of two at or above n, at compile time
__host__ __device__ constexpr int sort_pow2(int n)
{
    return n <= 1 ? 1 : 2 * sort_pow2((n + 1) / 2);
}

// One pass of the network in shared memory: the P / 2 pairs (i, i + stride) shared over the block, i with
// bit `stride` clear (pair p: i = 2p - p % stride), ascending where bit `size` of i is clear; a pair is
// swapped only where its keys are strictly out of order, as Warp's CPU does.
template <int P, int THREADS, typename K, typename V>
__device__ void sort_pass_shared(K* k, V* v, int size, int stride)
{
    for (int pair = threadIdx.x; pair < P / 2; pair += THREADS) {
        const int i = 2 * pair - (pair & (stride - 1));
        const int j = i + stride;
        const bool ascending = (i & size) == 0;
        if (ascending ? k[j] < k[i] : k[i] < k[j]) {
            const K key = k[i];
            k[i] = k[j];
            k[j] = key;
            const V value = v[i];
            v[i] = v[j];
            v[j] = value;
        }
    }
}

// wp.tile_sort: the N (key, value) pairs of two tiles in shared memory, in ascending order of key, in
// place, by the block's THREADS threads together. Warp's bitonic network (tile_radix_sort.h; its CPU
// runs it one comparison at a time): merges of size 2, 4, ..., P (P the power of two at or above N),
// each in passes of stride size / 2, ..., 1 comparing element i with i + stride. Below P the pairs
// are sorted as if padded with the largest key (max_key), as Warp pads them. Every pass makes the
// CPU's swaps, so equal keys end where Warp's CPU leaves them.
// In a block of whole warps, with a scalar payload and at most 8 elements a thread, each thread holds
// elements threadIdx.x + m * THREADS in registers, as Warp's GPU sort does: a pass of stride below 32
// pairs lanes of one warp (an exchange by __shfl_xor_sync), one of stride 32 or more goes through
// shared memory (a barrier after each). Otherwise every pass goes through shared memory (the padded
// copy where N is no power of two).
template <int N, int THREADS, typename K, typename V>
__device__ void tile_sort_pairs(K* keys, V* values, const K max_key)
{
    constexpr int P = sort_pow2(N);
    constexpr int PER = (P + THREADS - 1) / THREADS;  // elements a thread holds
    K* sk = keys;
    V* sv = values;
    if constexpr (P != N) {
        __shared__ K padded_keys[P];
        __shared__ V padded_values[P];
        sk = padded_keys;
        sv = padded_values;
    }
    if constexpr (THREADS % 32 == 0 && PER <= 8 && std::is_arithmetic<V>::value) {
        K k[PER];
        V v[PER];
        for (int m = 0; m < PER; ++m) {
            const int e = threadIdx.x + m * THREADS;
            k[m] = e < N ? keys[e] : max_key;
            v[m] = e < N ? values[e] : V{};
        }
        for (int size = 2; size <= P; size *= 2) {
            int stride = size / 2;
            if (stride >= 32) {  // through shared memory (each thread writes and reads back its own elements)
                for (int m = 0; m < PER; ++m) {
                    const int e = threadIdx.x + m * THREADS;
                    if (e < P) {
                        sk[e] = k[m];
                        sv[e] = v[m];
                    }
                }
                __syncthreads();
                for (; stride >= 32; stride /= 2) {
                    sort_pass_shared<P, THREADS>(sk, sv, size, stride);
                    __syncthreads();
                }
                for (int m = 0; m < PER; ++m) {
                    const int e = threadIdx.x + m * THREADS;
                    if (e < P) {
                        k[m] = sk[e];
                        v[m] = sv[e];
                    }
                }
            }
            for (; stride > 0; stride /= 2) {  // within each warp: lane ^ stride holds the other element
                for (int m = 0; m < PER; ++m) {
                    const K other_key = __shfl_xor_sync(0xffffffffu, k[m], stride);
                    const V other_value = __shfl_xor_sync(0xffffffffu, v[m], stride);
                    const int e = threadIdx.x + m * THREADS;
                    const bool ascending = (e & size) == 0;  // bit `size` of the pair's lower element
                    const bool lower = (e & stride) == 0;
                    // the pair is swapped where its lower key is strictly above (below, descending) the upper
                    const bool swap = lower == ascending ? other_key < k[m] : k[m] < other_key;
                    if (swap) {
                        k[m] = other_key;
                        v[m] = other_value;
                    }
                }
            }
        }
        for (int m = 0; m < PER; ++m) {  // each thread its own elements, as the caller's loops own them
            const int e = threadIdx.x + m * THREADS;
            if (e < N) {
                keys[e] = k[m];
                values[e] = v[m];
            }
        }
    } else {
        if constexpr (P != N) {
            for (int i = threadIdx.x; i < P; i += THREADS) {
                sk[i] = i < N ? keys[i] : max_key;
                sv[i] = i < N ? values[i] : V{};
            }
            __syncthreads();
        }
        for (int size = 2; size <= P; size *= 2) {
            for (int stride = size / 2; stride > 0; stride /= 2) {
                sort_pass_shared<P, THREADS>(sk, sv, size, stride);
                __syncthreads();
            }
        }
        if constexpr (P != N) {
            for (int i = threadIdx.x; i < N; i += THREADS) {  // each thread its own elements, as it copied them
                keys[i] = sk[i];
                values[i] = sv[i];
            }
        }
    }
}"""

_TILE_FFT_ROWS = r"""// log2 of a power of two, at compile time
__host__ __device__ constexpr int fft_log2(int n)
{
    return n > 1 ? 1 + fft_log2(n / 2) : 0;
}

// wp.tile_fft (SIGN -1) / wp.tile_ifft (SIGN +1) of a tile of ROWS rows of N complex values in shared
// memory, every row in place and unnormalized, by the block's THREADS threads together. Warp's
// cooperative radix-2 algorithm (tile_fft.h) in its arithmetic: a bit-reverse permutation, then the
// stages of length 2, 4, ..., N, two per pass (a thread takes four elements through both in
// registers), every row in one loop per pass. The twiddles e^(SIGN 2 pi i k / N), k < N / 2, are
// computed once per call; the stage of length len reads every (N / len)-th, whose angle is Warp's
// (SIGN 2 pi / len) pos exactly (the two products' factors differ by a power of two).
// e^(i theta), by the sine and cosine of theta's own precision
__device__ __forceinline__ float2 unit_complex(float theta) { return make_float2(cosf(theta), sinf(theta)); }
__device__ __forceinline__ double2 unit_complex(double theta) { return make_double2(cos(theta), sin(theta)); }

template <int SIGN, int N, int ROWS, int THREADS, typename Complex>
__device__ void tile_fft_rows(Complex* x)
{
    using Real = decltype(x->x);
    __shared__ Complex twiddle[N / 2];
    for (int k = threadIdx.x; k < N / 2; k += THREADS) {
        const Real theta = Real(SIGN) * Real(6.28318530717958647692528676655900576839433879875021) / Real(N) * Real(k);  // Warp's two_pi()
        twiddle[k] = unit_complex(theta);
    }
    for (int e = threadIdx.x; e < ROWS * N; e += THREADS) {  // bit-reverse permutation of each row
        const int col = e & (N - 1);
        const int rev = int(__brev(unsigned(col)) >> (32 - fft_log2(N)));
        if (col < rev) {
            const Complex swap = x[e];
            x[e] = x[e - col + rev];
            x[e - col + rev] = swap;
        }
    }
    __syncthreads();
    int half = 1;
#pragma unroll
    for (; 4 * half <= N; half <<= 2) {  // the stages of length 2 half and 4 half
        const int step = N / 2 / half;  // the first one's twiddles: every step-th
        for (int b = threadIdx.x; b < ROWS * N / 4; b += THREADS) {
            const int pos = b & (half - 1);  // in its group of 4 half
            Complex* at = x + ((b - pos) << 2) + pos;
            Complex v[4] = {at[0], at[half], at[2 * half], at[3 * half]};
            fft_butterfly(v[0], v[1], twiddle[pos * step]);
            fft_butterfly(v[2], v[3], twiddle[pos * step]);
            fft_butterfly(v[0], v[2], twiddle[pos * step / 2]);
            fft_butterfly(v[1], v[3], twiddle[(pos + half) * step / 2]);
            at[0] = v[0];
            at[half] = v[1];
            at[2 * half] = v[2];
            at[3 * half] = v[3];
        }
        __syncthreads();
    }
    if (half < N) {  // an odd number of stages: the last one, of length N, alone
        for (int b = threadIdx.x; b < ROWS * N / 2; b += THREADS) {
            const int pos = b & (N / 2 - 1);
            Complex* at = x + ((b - pos) << 1) + pos;
            Complex lo = at[0], hi = at[N / 2];
            fft_butterfly(lo, hi, twiddle[pos]);
            at[0] = lo;
            at[N / 2] = hi;
        }
        __syncthreads();
    }
}"""

_LOWER_BOUND = r"""// wp.lower_bound(arr, [begin, end,] value): Warp's binary search (array.h) over arr[begin, end - 1]
// for the first element not below value. It never returns end: when every element is below value it
// returns end - 1, as Warp's does; on an unsorted array it returns what Warp's search returns.
template <typename T>
__device__ __forceinline__ int lower_bound(const T* arr, int begin, int end, T value)
{
    int lower = begin;
    int upper = end - 1;
    while (lower < upper) {
        const int mid = lower + (upper - lower) / 2;
        if (arr[mid] < value)
            lower = mid + 1;
        else
            upper = mid;
    }
    return lower;
}"""

# mesh_query_aabb_next and bvh_query_next each carry the same seven lines of walk (pop or descend):
# merged into one templated walk taking the box test as a lambda, the BVH queries ran 15-48% slower on
# the H100 (notes/design.md, session 31), so the two stay apart.
_BVH_QUERY = r"""// What a query tests each box against (Warp's BvhQueryKind)
enum class BvhQueryKind { Box, Ray, Sphere };

// A query in progress (Warp's bvh_query_t): a box, a ray (its start and 1 / dir per axis) or a sphere
// (its centre and squared radius), the nodes still to visit, and the leaf being read.
struct BvhQuery
{
    Bvh bvh;
    BvhQueryKind kind;
    float3 lower;  // the box; a ray's start; a sphere's centre
    float3 upper;  // the box; a ray's 1 / dir; a sphere's centre
    float radius_sq;
    int node;        // the node to test next; -1: the one on top of the stack
    BvhStack stack;  // the nodes to visit after it
    int count;       // entries on the stack
    int leaf_next, leaf_end;  // the leaf's items still to test, item_order[leaf_next, leaf_end)
};

// Warp's intersect_ray_aabb (slab test): whether the ray start + t dir, t >= 0, meets the box
__device__ __forceinline__ bool ray_meets_box(float3 start, float3 rcp_dir, float3 lower, float3 upper)
{
    float l1 = (lower.x - start.x) * rcp_dir.x, l2 = (upper.x - start.x) * rcp_dir.x;
    float lmin = fminf(l1, l2), lmax = fmaxf(l1, l2);
    l1 = (lower.y - start.y) * rcp_dir.y;
    l2 = (upper.y - start.y) * rcp_dir.y;
    lmin = fmaxf(fminf(l1, l2), lmin);
    lmax = fminf(fmaxf(l1, l2), lmax);
    l1 = (lower.z - start.z) * rcp_dir.z;
    l2 = (upper.z - start.z) * rcp_dir.z;
    lmin = fmaxf(fminf(l1, l2), lmin);
    lmax = fminf(fmaxf(l1, l2), lmax);
    return lmax >= 0.0f && lmax >= lmin;
}

// Warp's intersect_sphere_aabb: the squared distance from the centre to the box, per axis, at most r^2
__device__ __forceinline__ bool sphere_meets_box(float3 centre, float radius_sq, float3 lower, float3 upper)
{
    const float dx = fmaxf(fmaxf(lower.x - centre.x, centre.x - upper.x), 0.0f);
    const float dy = fmaxf(fmaxf(lower.y - centre.y, centre.y - upper.y), 0.0f);
    const float dz = fmaxf(fmaxf(lower.z - centre.z, centre.z - upper.z), 0.0f);
    return dx * dx + dy * dy + dz * dz <= radius_sq;
}

__device__ __forceinline__ bool bvh_query_hits(const BvhQuery& query, float3 lower, float3 upper)
{
    switch (query.kind) {
    case BvhQueryKind::Ray:
        return ray_meets_box(query.lower, query.upper, lower, upper);
    case BvhQueryKind::Sphere:
        return sphere_meets_box(query.lower, query.radius_sq, lower, upper);
    default:
        return boxes_overlap(query.lower, query.upper, lower, upper);
    }
}

// wp.bvh_query_aabb(bvh, lower, upper): every item whose box overlaps [lower, upper]
__device__ __forceinline__ BvhQuery bvh_query_aabb(const Bvh& bvh, float3 lower, float3 upper)
{
    BvhQuery query;
    query.bvh = bvh;
    query.kind = BvhQueryKind::Box;
    query.lower = lower;
    query.upper = upper;
    query.radius_sq = 0.0f;
    query.node = 0;  // the root
    query.stack = bvh_shared_stack();
    query.count = 0;
    query.leaf_next = query.leaf_end = 0;
    return query;
}

// wp.bvh_query_next(query, index): the query's next item, into `index`; false once none is left.
// Depth first: a node whose box the query misses is skipped with everything below it.
__device__ inline bool bvh_query_next(BvhQuery& query, int& index)
{
    while (true) {
        while (query.leaf_next < query.leaf_end) {
            const int item = query.bvh.item_order[query.leaf_next++];
            if (bvh_query_hits(query, query.bvh.lowers[item], query.bvh.uppers[item])) {
                index = item;
                return true;
            }
        }
        if (query.node < 0) {
            if (query.count == 0)
                return false;
            query.node = query.stack[--query.count];
        }
        const BvhNode node = load_node(query.bvh.nodes, query.node);
        query.node = -1;
        if (!bvh_query_hits(query, node.lower, node.upper))
            continue;
        if (node.count > 0) {  // a leaf: its items next
            query.leaf_next = node.first;
            query.leaf_end = node.first + node.count;
        } else {  // the left child next, without a trip through the stack; the right one after it
            query.stack[query.count++] = node.first + 1;
            query.node = node.first;
        }
    }
}"""

_BVH_QUERY_RAY = r"""// wp.bvh_query_ray(bvh, start, dir): every item whose box the ray start + t dir (t >= 0) meets
__device__ __forceinline__ BvhQuery bvh_query_ray(const Bvh& bvh, float3 start, float3 dir)
{
    BvhQuery query = bvh_query_aabb(bvh, start, make_float3(1.0f / dir.x, 1.0f / dir.y, 1.0f / dir.z));
    query.kind = BvhQueryKind::Ray;
    return query;
}"""

_BVH_QUERY_SPHERE = r"""// wp.bvh_query_sphere(bvh, centre, radius): every item whose box comes within `radius` of `centre`
__device__ __forceinline__ BvhQuery bvh_query_sphere(const Bvh& bvh, float3 centre, float radius)
{
    BvhQuery query = bvh_query_aabb(bvh, centre, centre);
    query.kind = BvhQueryKind::Sphere;
    const float r = fmaxf(radius, 0.0f);
    query.radius_sq = r * r;
    return query;
}"""

_BVH_NODE = r"""// A node of a bounding volume hierarchy over items (a mesh's triangles, a Bvh's boxes): main() builds
// the tree on the host (build_bvh_node), its root at 0. 32 bytes on a 16-byte boundary: a query reads
// a node in two 16-byte loads (load_node).
struct alignas(16) BvhNode
{
    float3 lower;  // the box around every item below this node
    int first;     // inner node: its children are nodes first and first + 1; leaf: its first slot in the item order
    float3 upper;
    int count;     // leaf: how many items it holds, order[first, first + count); inner node: 0
};

// Node `index` of a tree, in two 16-byte loads through the read-only data cache (as Warp's
// bvh_load_node): the tree does not change while a kernel runs
__device__ __forceinline__ BvhNode load_node(const BvhNode* nodes, int index)
{
    const float4* halves = reinterpret_cast<const float4*>(nodes + index);
    const float4 a = __ldg(halves), b = __ldg(halves + 1);
    return {make_float3(a.x, a.y, a.z), __float_as_int(a.w), make_float3(b.x, b.y, b.z), __float_as_int(b.w)};
}

// Entries a query's traversal stack holds: one more than the tree's depth, which main() checks (a
// median split of n items into leaves of k is about log2(n / k) deep)
constexpr int BVH_STACK_SIZE = 32;"""

_BVH_STACK = r"""// Threads per block of every launch of this program (main() launches no more)
constexpr int BVH_BLOCK_THREADS = {threads};

// An iterating query's traversal stack (Warp's bvh_stack_t): this thread's column of one block-wide
// array in shared memory, entry `depth` at column[depth * BVH_BLOCK_THREADS]. The block's threads
// reach one level side by side (a bank each), and the stack takes no local memory.
struct BvhStack
{
    int* column;
    __device__ int& operator[](int depth) const { return column[depth * BVH_BLOCK_THREADS]; }
};

// This thread's traversal stack: one array per kernel for all its iterating queries, as in Warp. A
// query started inside another's loop would overwrite that one's stack; the translator refuses it.
__device__ __forceinline__ BvhStack bvh_shared_stack()
{
    __shared__ int stack[BVH_STACK_SIZE * BVH_BLOCK_THREADS];
    return {stack + threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)};
}""".replace("{threads}", str(THREADS_PER_BLOCK))

_BOXES_OVERLAP = r"""// Warp's intersect_aabb_aabb: boxes that touch overlap
__device__ __forceinline__ bool boxes_overlap(float3 a_lower, float3 a_upper, float3 b_lower, float3 b_upper)
{
    return !(a_lower.x > b_upper.x || a_lower.y > b_upper.y || a_lower.z > b_upper.z ||
             a_upper.x < b_lower.x || a_upper.y < b_lower.y || a_upper.z < b_lower.z);
}"""

BVH_SNIPPETS = {  # snippet name -> (source, dependencies)
    "boxes_overlap": (_BOXES_OVERLAP, ()),
    "bvh_node": (_BVH_NODE, ()),
    "bvh": (_BVH, ("bvh_node",)),
    "bvh_stack": (_BVH_STACK, ("bvh_node",)),
    "bvh_query": (_BVH_QUERY, ("bvh", "boxes_overlap", "bvh_stack")),
    "bvh_query_ray": (_BVH_QUERY_RAY, ("bvh_query",)),
    "bvh_query_sphere": (_BVH_QUERY_SPHERE, ("bvh_query",)),
}


# Tensor-core matrix products (tiles.tensor_core_product). bfloat16 fragments exist from sm_80 on: a
# build for an older GPU stops at the #error with what to do, not at an unknown type deep in mma.h.
_WMMA = """#include <mma.h>

namespace wmma = nvcuda::wmma;  // tensor-core matrix products, one block of the product per warp at a time"""
_WMMA_BF16 = """#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "bfloat16 tensor-core products (wmma) need sm_80 or later: build with make ARCH=sm_80 (or your GPU's sm_XY)"
#endif"""
MINIMUM_ARCH = re.compile(r"^#if defined\(__CUDA_ARCH__\) && __CUDA_ARCH__ < (\d+)0$", re.M)


def required_arch(cu_text: str, default: str) -> str:
    """The architecture a program builds for: `default`, or the oldest one its code needs (its
    `#error` guard) where that is newer."""
    needed = [int(v) for v in MINIMUM_ARCH.findall(cu_text)]
    have = int(default.removeprefix("sm_"))
    return f"sm_{max([have, *needed])}"


def render_snippets(names: set[str]) -> str:
    """All requested helpers and their dependencies, dependencies first, in a stable order."""
    ordered: list[str] = []

    def visit(n: str) -> None:
        if n in ordered:
            return
        for dep in snippet(n)[1]:
            visit(dep)
        ordered.append(n)

    for n in sorted(names, key=_snippet_order):
        visit(n)
    return "\n\n".join(snippet(n)[0] for n in ordered)


def _snippet_order(name: str) -> tuple[int, str]:
    kind = name.split(":")[0]
    rank = -1 if kind in ("half", "wmma", "wmma_bf16") else 0 if kind in ("mat", "matd", "quat") else (1 if kind == "transform" else 2)
    return (rank, name)
