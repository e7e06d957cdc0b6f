"""The one type registry: every Warp value type the project generates, translates or runs.

Each entry says, in one place, what the generator, the translator, the Warp reference and the
sample templates need to know about a type: its canonical name, its component type and shape (so
its width and memory layout), its standalone CUDA spelling, the annotation spellings Warp code uses,
and the Warp attribute that builds it. Adding a type is one entry here.

Memory layout of every non-scalar type is Warp's: components flat, in declaration order (vectors
x, y, z, w; matrices row-major; quat x, y, z, w; transform p.x, p.y, p.z, q.x, q.y, q.z, q.w).
"""
from __future__ import annotations

from dataclasses import dataclass
from math import prod


@dataclass(frozen=True)
class DType:
    name: str  # canonical name, used in specs, metadata and records
    kind: str  # scalar | vector | matrix | quaternion | transform
    scalar: str  # component type: float32 | float64 | float16 | int32 | uint32 | int8 | uint8 | int64 | bool
    shape: tuple[int, ...]  # component shape: () for scalars, (3,) vec3, (3, 3) mat33, (7,) transform
    ctype: str  # the type in standalone CUDA
    spellings: tuple[str, ...]  # names Warp code uses for it after `wp.` (also bare for float/int/bool)
    annotations: tuple[str, ...]  # the spellings the generator writes in parameter annotations
    warp_attr: str  # wp.<warp_attr> is the Warp type

    @property
    def width(self) -> int:
        """Number of components in one value (each `component_bytes` wide)."""
        return prod(self.shape) if self.shape else 1

    @property
    def is_int(self) -> bool:
        return self.scalar in INT_SCALARS

    @property
    def is_float(self) -> bool:
        return self.scalar in FLOAT_SCALARS

    @property
    def numpy_scalar(self) -> str:
        """numpy dtype name of one component (bfloat16, which numpy lacks: its 16 bits, as Warp's
        `array.numpy()` gives them)."""
        return "uint16" if self.scalar == "bfloat16" else self.scalar

    @property
    def component_bytes(self) -> int:
        return SCALAR_BYTES[self.scalar]

    @property
    def component_ctype(self) -> str:
        """The C type of one component (host arrays, expected.bin's element type)."""
        return SCALAR_CTYPES[self.scalar]

    @property
    def nbytes(self) -> int:
        return self.component_bytes * self.width

    def warp_type(self):
        import warp as wp

        return getattr(wp, self.warp_attr)


# Component types: their size and their C spelling. float16 is CUDA's __half (cuda_fp16.h), bfloat16
# its __nv_bfloat16 (cuda_bf16.h: the training type, float32's exponent with 8 significant bits); uint32
# is the state of Warp's random number generator (rand.h). int8 and uint8 hold quantised values and
# images, int64 the labels and token ids PyTorch hands over (Warp's builtin.h: int8_t, uint8_t, int64_t).
SCALAR_BYTES = {"float32": 4, "float64": 8, "float16": 2, "bfloat16": 2, "int32": 4, "uint32": 4, "int8": 1,
                "uint8": 1, "int64": 8, "int16": 2, "uint16": 2, "bool": 1}
SCALAR_CTYPES = {"float32": "float", "float64": "double", "float16": "__half", "bfloat16": "__nv_bfloat16",
                 "int32": "int", "uint32": "uint32_t", "int8": "int8_t", "uint8": "uint8_t", "int64": "int64_t",
                 "int16": "int16_t", "uint16": "uint16_t", "bool": "bool"}
FLOAT_SCALARS = ("float32", "float64", "float16", "bfloat16")
INT_SCALARS = ("int32", "uint32", "int8", "uint8", "int64", "int16", "uint16")
# Integers that are not int or unsigned int in C: stored and converted (`wp.int8(v)`, `int(q[i])`);
# their arithmetic is Warp's (builtin.h: in int, narrowed back to the type)
STORAGE_INT_SCALARS = ("int8", "uint8", "int64", "int16", "uint16")


def bfloat16_bits(values):
    """float32 values (numpy) as bfloat16 bits, rounded to nearest even as CUDA's __float2bfloat16 and
    Warp's float_to_bfloat16 round (finite values)."""
    import numpy as np

    x = np.asarray(values, dtype=np.float32).view(np.uint32)
    return ((x + np.uint32(0x7FFF) + ((x >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)).astype(np.uint16)


def float_values(raw, scalar: str):
    """An array's components as numpy values to compare: bfloat16's bits (numpy has no bfloat16)
    widened to the float32 they stand for; any other type as it is."""
    import numpy as np

    if scalar != "bfloat16":
        return raw
    return (np.asarray(raw, dtype=np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)


def _scalar(name: str, ctype: str, spellings: tuple[str, ...], annotations: tuple[str, ...]) -> DType:
    return DType(name, "scalar", name, (), ctype, spellings, annotations, name)


def _vector(n: int, scalar: str = "float32") -> DType:
    if scalar == "float64":  # vec3d: CUDA's double3
        name = f"vec{n}d"
        return DType(name, "vector", scalar, (n,), f"double{n}", (name,), (f"wp.{name}",), name)
    name = f"vec{n}"
    return DType(name, "vector", "float32", (n,), f"float{n}", (name, f"{name}f"), (f"wp.{name}",), name)


def _matrix(n: int, scalar: str = "float32") -> DType:
    if scalar == "float64":
        name = f"mat{n}{n}d"
        return DType(name, "matrix", scalar, (n, n), name, (name,), (f"wp.{name}",), name)
    name = f"mat{n}{n}"
    return DType(name, "matrix", "float32", (n, n), name, (name, f"{name}f"), (f"wp.{name}",), name)


TYPES: dict[str, DType] = {t.name: t for t in (
    _scalar("float32", "float", ("float32", "float"), ("float", "wp.float32")),
    _scalar("float64", "double", ("float64",), ("wp.float64",)),
    _scalar("float16", "__half", ("float16",), ("wp.float16",)),
    _scalar("bfloat16", "__nv_bfloat16", ("bfloat16",), ("wp.bfloat16",)),
    _scalar("int32", "int", ("int32", "int"), ("int", "wp.int32")),
    _scalar("uint32", "uint32_t", ("uint32",), ("wp.uint32",)),
    _scalar("int8", "int8_t", ("int8",), ("wp.int8",)),
    _scalar("uint8", "uint8_t", ("uint8",), ("wp.uint8",)),
    _scalar("int64", "int64_t", ("int64",), ("wp.int64",)),
    _scalar("int16", "int16_t", ("int16",), ("wp.int16",)),
    _scalar("uint16", "uint16_t", ("uint16",), ("wp.uint16",)),
    _scalar("bool", "bool", ("bool",), ("bool",)),
    _vector(2), _vector(3), _vector(4),
    _vector(2, "float64"), _vector(3, "float64"), _vector(4, "float64"),
    _matrix(2), _matrix(3), _matrix(4),
    _matrix(2, "float64"), _matrix(3, "float64"), _matrix(4, "float64"),
    DType("quat", "quaternion", "float32", (4,), "quat", ("quat", "quatf"), ("wp.quat",), "quat"),
    DType("transform", "transform", "float32", (7,), "transform", ("transform", "transformf"),
          ("wp.transform",), "transform"),
)}

# Warp annotation spelling (after `wp.`, or bare) -> canonical name
ALIASES: dict[str, str] = {s: t.name for t in TYPES.values() for s in t.spellings}

SCALAR_TYPES = tuple(n for n, t in TYPES.items() if t.kind == "scalar" and n != "bool")
VECTOR_TYPES = {n: t.shape[0] for n, t in TYPES.items() if t.kind == "vector"}
MATRIX_TYPES = {n: t.shape[0] for n, t in TYPES.items() if t.kind == "matrix"}


def dtype(name: str) -> DType:
    """The registry entry for a canonical name or any Warp spelling of it."""
    try:
        return TYPES[ALIASES.get(name, name)]
    except KeyError:
        raise KeyError(f"unknown type {name!r}") from None


def is_known(name: str) -> bool:
    return ALIASES.get(name, name) in TYPES
