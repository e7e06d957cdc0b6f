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
    scalar: str  # component type: float32 | int32 | bool
    shape: tuple[int, ...]  # component shape: () for scalars, (3,) vec3, (3, 3) mat33, (7,) transform
    ctype: str  # the type in standalone CUDA
    spellings: tuple[str, ...]  # names Warp code uses for it after `wp.` (also bare for float/int/bool)
    annotations: tuple[str, ...]  # the spellings the generator writes in parameter annotations
    warp_attr: str  # wp.<warp_attr> is the Warp type

    @property
    def width(self) -> int:
        """Number of 32-bit components in one value."""
        return prod(self.shape) if self.shape else 1

    @property
    def is_int(self) -> bool:
        return self.scalar == "int32"

    @property
    def is_float(self) -> bool:
        return self.scalar == "float32"

    @property
    def numpy_scalar(self) -> str:
        """numpy dtype name of one component."""
        return {"float32": "float32", "int32": "int32", "bool": "bool"}[self.scalar]

    @property
    def nbytes(self) -> int:
        return 4 * self.width

    def warp_type(self):
        import warp as wp

        return getattr(wp, self.warp_attr)


def _scalar(name: str, ctype: str, spellings: tuple[str, ...], annotations: tuple[str, ...]) -> DType:
    return DType(name, "scalar", name, (), ctype, spellings, annotations, name)


def _vector(n: int) -> DType:
    name = f"vec{n}"
    return DType(name, "vector", "float32", (n,), f"float{n}", (name, f"{name}f"), (f"wp.{name}",), name)


def _matrix(n: int) -> DType:
    name = f"mat{n}{n}"
    return DType(name, "matrix", "float32", (n, n), name, (name, f"{name}f"), (f"wp.{name}",), name)


TYPES: dict[str, DType] = {t.name: t for t in (
    _scalar("float32", "float", ("float32", "float"), ("float", "wp.float32")),
    _scalar("int32", "int", ("int32", "int"), ("int", "wp.int32")),
    _scalar("bool", "bool", ("bool",), ("bool",)),
    _vector(2), _vector(3), _vector(4),
    _matrix(2), _matrix(3), _matrix(4),
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
