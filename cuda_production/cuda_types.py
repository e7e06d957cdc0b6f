"""Warp types in CUDA, and the small device helpers a translated kernel may need.

Vectors map to CUDA's own float2/float3/float4; matrices to a tiny row-major struct. Operators and
helpers are snippets, emitted only when a kernel uses them, each mirroring the arithmetic order of
Warp's native implementation (warp/native/vec.h, mat.h, builtin.h) so float results agree.
"""
from __future__ import annotations

from dataclasses import dataclass

from synthesis.dtypes import ALIASES, MATRIX_TYPES, TYPES, VECTOR_TYPES

VEC_LEN = VECTOR_TYPES
MAT_DIM = MATRIX_TYPES
COMPONENTS = "xyzw"

# Warp annotation spellings -> our type names (the registry's)
TYPE_ALIASES = ALIASES


@dataclass(frozen=True)
class ArrayType:
    dtype: str
    ndim: int


def ctype(t: str) -> str:
    return TYPES[t].ctype


def is_vec(t) -> bool:
    return isinstance(t, str) and t in VEC_LEN


def is_mat(t) -> bool:
    return isinstance(t, str) and t in MAT_DIM


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
    if kind in ("vmin", "vmax"):
        n = int(arg); v = f"float{n}"; f = "fminf" if kind == "vmin" else "fmaxf"
        return _fn(v, f"{kind[1:]}({v} a, {v} b)", f"    return {_make(n, [f'{f}(a.{c}, b.{c})' for c in _comps(n)])};"), ()
    if kind == "dot":
        n = int(arg); v = f"float{n}"
        return _fn("float", f"dot({v} a, {v} b)", "    return " + " + ".join(f"a.{c} * b.{c}" for c in _comps(n)) + ";"), ()
    if kind == "length":
        n = int(arg); v = f"float{n}"
        return _fn("float", f"length({v} a)", "    return sqrtf(dot(a, a));"), (f"dot:{n}",)
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
    if kind == "transpose":
        n = int(arg); m = f"mat{n}{n}"
        return _fn(m, f"transpose(const {m}& a)", _mat_elementwise(n, "a.m[j][i]")), (f"mat:{n}",)
    if kind == "outer":
        n = int(arg); m = f"mat{n}{n}"; v = f"float{n}"
        lines = "\n".join(f"    r.m[{i}][{j}] = a.{COMPONENTS[i]} * b.{COMPONENTS[j]};" for i in range(n) for j in range(n))
        return _fn(m, f"outer({v} a, {v} b)", f"    {m} r;\n{lines}\n    return r;"), (f"mat:{n}",)
    if kind == "floordiv":
        body = ("    // Python floor division: round the C quotient toward negative infinity\n"
                "    int q = a / b;\n    if ((a % b != 0) && ((a < 0) != (b < 0)))\n        --q;\n    return q;")
        return _fn("int", "floordiv(int a, int b)", body), ()
    if kind == "sign":
        return _fn("float", "signf(float x)", "    return x < 0.0f ? -1.0f : 1.0f;  // Warp: sign(0) == 1"), ()
    if kind in ("atomic_min_f", "atomic_max_f"):
        f = "fminf" if kind == "atomic_min_f" else "fmaxf"
        name_ = "atomicMinFloat" if kind == "atomic_min_f" else "atomicMaxFloat"
        body = ("    // CUDA has no native float atomic min/max: compare-and-swap until no other thread intervened\n"
                "    int* address_as_int = reinterpret_cast<int*>(address);\n"
                "    int old = *address_as_int;\n    int assumed;\n    do {\n        assumed = old;\n"
                f"        old = atomicCAS(address_as_int, assumed, __float_as_int({f}(val, __int_as_float(assumed))));\n"
                "    } while (assumed != old);\n    return __int_as_float(old);")
        return _fn("float", f"{name_}(float* address, float val)", body), ()
    if kind in ("vatomic_add", "vatomic_sub", "vatomic_min", "vatomic_max"):
        n = int(arg); v = f"float{n}"; op = kind.split("_")[1]
        call = {"add": "atomicAdd({p}, {x})", "sub": "atomicAdd({p}, -{x})",
                "min": "atomicMinFloat({p}, {x})", "max": "atomicMaxFloat({p}, {x})"}[op]
        parts = [call.format(p=f"&address->{c}", x=f"val.{c}") for c in _comps(n)]
        deps = (f"atomic_{op}_f",) if op in ("min", "max") else ()
        body = "    // component-wise, as Warp does; returns the old vector\n    return " + _make(n, parts) + ";"
        return _fn(v, f"atomic{op.capitalize()}Float{n}({v}* address, {v} val)", body), deps
    raise KeyError(name)


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
    rank = 0 if kind == "mat" else 1
    return (rank, name)
