"""Records describing a generated kernel: what it is, its arguments, and how to launch it."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

SCALAR_TYPES = ("float32", "int32")
VECTOR_TYPES = {"vec2": 2, "vec3": 3, "vec4": 4}
MATRIX_TYPES = {"mat22": 2, "mat33": 3, "mat44": 4}
ARG_ROLES = ("input", "output", "inout", "index", "scalar")


def type_width(dtype: str) -> int:
    """Number of 32-bit components in one element of `dtype`."""
    if dtype in VECTOR_TYPES:
        return VECTOR_TYPES[dtype]
    if dtype in MATRIX_TYPES:
        return MATRIX_TYPES[dtype] ** 2
    return 1


def is_int_type(dtype: str) -> bool:
    return dtype == "int32"


@dataclass(frozen=True)
class ArgSpec:
    """One kernel argument.

    role: input (read only), output (starts at zero), inout (starts from random values and is
    written), index (holds valid indices into an array of `high + 1` elements), scalar (passed by
    value: `value`).
    low/high: the range the inputs are drawn from (inclusive); values lie on a grid of 2**-grid_bits.
    bound: for written arrays, a bound on |value| of every element the kernel can produce, which
    scales the absolute tolerance of the equivalence check.
    """

    name: str
    dtype: str
    role: str
    shape: tuple[int, ...] = ()
    low: float = -1.0
    high: float = 1.0
    grid_bits: int = 10
    value: float | int | None = None
    bound: float = 1.0

    @property
    def is_array(self) -> bool:
        return self.role != "scalar"

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    @property
    def is_written(self) -> bool:
        return self.role in ("output", "inout")


@dataclass(frozen=True)
class KernelSpec:
    """A generated kernel. `source` holds the @wp.func helpers and the @wp.kernel (no imports)."""

    name: str
    category: str
    description: str
    source: str
    args: tuple[ArgSpec, ...]
    dim: tuple[int, ...]
    seed: int
    helpers: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict:
        d = asdict(self)
        d["args"] = [asdict(a) for a in self.args]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "KernelSpec":
        args = tuple(
            ArgSpec(**{**a, "shape": tuple(a["shape"])}) for a in d["args"]
        )
        return cls(
            name=d["name"],
            category=d["category"],
            description=d["description"],
            source=d["source"],
            args=args,
            dim=tuple(d["dim"]),
            seed=d["seed"],
            helpers=tuple(d.get("helpers", ())),
        )
