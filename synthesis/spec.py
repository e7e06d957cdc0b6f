"""Records describing a generated kernel: what it is, its arguments, and how to launch it."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from synthesis.dtypes import MATRIX_TYPES, SCALAR_TYPES, STORAGE_INT_SCALARS, VECTOR_TYPES, dtype as lookup_dtype  # noqa: F401

ARG_ROLES = ("input", "output", "inout", "index", "offsets", "scalar", "struct", "hash_grid", "mesh", "bvh")
# roles passed as a `wp.uint64` id of a structure built before the launch: no hashed inputs of their own
ID_ROLES = ("hash_grid", "mesh", "bvh")


def type_width(dtype: str) -> int:
    """Number of 32-bit components in one element of `dtype`."""
    return lookup_dtype(dtype).width


def is_int_type(dtype: str) -> bool:
    return lookup_dtype(dtype).is_int


@dataclass(frozen=True)
class ArgSpec:
    """One kernel argument: the one description used by the generator, the Warp reference, the
    sample templates and the metadata.

    role: input (read only), output (starts at zero), inout (starts from random values and is
    written), index (holds valid indices into an array of `high + 1` elements), offsets (a compressed
    sparse row's row pointers: int32, shape (rows + 1,), the exclusive prefix sums of row lengths
    in [low, high] (low + high even), so row i's entries are [a[i], a[i + 1]) and a[0] = 0; rows 2k and
    2k + 1 lie as far above and below the mean (low + high) / 2, so an even number of rows holds
    exactly rows x mean entries, the size of the arrays they index; it grows with the launch as an
    array of `rows` elements does, plus its one), scalar (passed by
    value: `value`; a tuple of floats, flattened in the type's memory order, for vector, matrix,
    quat and transform values), struct (a `@wp.struct` passed by value: `dtype` is the struct's
    name, `fields` its members in declaration order, each an ArgSpec of its own), hash_grid (a
    `wp.uint64` id of a `wp.HashGrid`: dtype "uint64", `shape` its (dim_x, dim_y, dim_z) cells,
    `value` its cell width, the `radius` of `HashGrid.build`, and `points` the name of the vec3 input
    array argument it is built over), mesh (a `wp.uint64` id of a `wp.Mesh`: dtype "uint64", `shape`
    (cells,) and `value` the cell width of the closed rock that synthesis/mesh_geometry.py builds,
    its bumps salted by the kernel's input seed), bvh (a `wp.uint64` id of a `wp.Bvh`: dtype "uint64",
    built over one box per point of the vec3 input array argument `points`, `[x - value, x + value]`
    per axis, `value` the boxes' half width, 0.0 for a point's own position).
    low/high: the range the inputs are drawn from (inclusive); values lie on a grid of 2**-grid_bits.
    bound: for written arrays, a bound on |value| of every element the kernel can produce, which
    scales the absolute tolerance of the equivalence check.
    launch_bound: an int scalar that counts the elements of a padded launch (`if tid >= n: return`,
    `value` a little below the launch's outermost extent): at bench size it keeps its distance below
    the grown launch (cuda_production/bench.py), so the bench times the same share of idle threads.

    An array of records (`wp.array(dtype=Body)` for a `@wp.struct Body` of by-value members) is an
    input, output or inout array whose `dtype` is the struct's name and whose `fields` describe its
    members in declaration order, each an array ArgSpec of the same shape with its own role and
    range (a member the kernel never writes is an input, whatever the array's role).

    Hashed inputs are numbered by position over the flattened argument list: a struct or an array of
    records contributes its fields in order, each taking one position, the struct itself none. Written arrays, struct
    fields included, go into expected.bin in that same flattened order.
    """

    name: str
    dtype: str
    role: str
    shape: tuple[int, ...] = ()
    low: float = -1.0
    high: float = 1.0
    grid_bits: int = 10
    value: float | int | tuple[float, ...] | None = None
    bound: float = 1.0
    fields: tuple["ArgSpec", ...] = ()
    points: str = ""
    launch_bound: bool = False
    # a 1-D array a launch of more dimensions reads by its outermost index alone (a scale, a label, a
    # token id per row): it grows with that index at bench size (cuda_production/bench.py)
    per_row: bool = False
    # an array whose outermost extent is a multiple of the launch's, but whose rows no launch index owns
    # (a convolution's C_out x C_in x K x K filters under an N x C_out x H x W launch): it keeps its size
    # at bench size, where the shape rule would grow it (cuda_production/bench.py)
    keeps_size: bool = False

    @property
    def kind(self) -> str:
        """array | scalar | struct | hash_grid | mesh | bvh: how the argument is passed."""
        if self.role in ("scalar", "struct") + ID_ROLES:
            return self.role
        return "array"

    @property
    def is_array(self) -> bool:
        return self.kind == "array"

    @property
    def is_records(self) -> bool:
        """An array of records: a `@wp.struct` per element, described by its `fields`."""
        return bool(self.fields) and self.role != "struct"

    @property
    def width(self) -> int:
        """Components per element (1 for structs, which are described by their fields, and grids; an
        array of records counts its members' components)."""
        if self.is_records:
            return sum(f.width for f in self.fields)
        return 1 if self.role in ("struct",) + ID_ROLES else type_width(self.dtype)

    @property
    def numpy_dtype(self) -> str:
        """numpy dtype of one component (how the hashed inputs and expected.bin hold it)."""
        return lookup_dtype(self.dtype).numpy_scalar

    @property
    def component_bytes(self) -> int:
        return lookup_dtype(self.dtype).component_bytes

    @property
    def count(self) -> int:
        """Number of elements (1 for a by-value argument)."""
        return self.size

    @property
    def is_int(self) -> bool:
        return self.role not in ("struct",) + ID_ROLES and not self.is_records and is_int_type(self.dtype)

    @property
    def is_storage_int(self) -> bool:
        """int8, uint8 or int64 (dtypes.STORAGE_INT_SCALARS): filled and checked in its own type, where an
        int32 or uint32 array goes through int's."""
        return self.is_int and lookup_dtype(self.dtype).scalar in STORAGE_INT_SCALARS

    @property
    def fill(self) -> tuple[int, int, float]:
        """(lowest grid step, number of grid steps, step size) for the hashed inputs."""
        step = 2.0 ** -self.grid_bits
        lo = int(round(self.low / step))
        span = int(round((self.high - self.low) / step)) + 1
        return lo, span, step

    def to_dict(self) -> dict:
        d = {"name": self.name, "kind": self.kind, **asdict(self)}
        d["shape"] = list(self.shape)
        if isinstance(self.value, tuple):
            d["value"] = list(self.value)
        d["fields"] = [f.to_dict() for f in self.fields]
        if not self.points:  # only a hash grid or a BVH names its points (older records have no key)
            del d["points"]
        if not self.launch_bound:  # only a padded launch's count has it (older records have no key)
            del d["launch_bound"]
        if not self.per_row:  # only a row's own value under a 2-D or 3-D launch has it
            del d["per_row"]
        if not self.keeps_size:  # only an array the shape rule would grow wrongly has it
            del d["keeps_size"]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "ArgSpec":
        d = {k: v for k, v in d.items() if k != "kind"}  # derived from role
        value = d.get("value")
        return cls(**{**d, "shape": tuple(d.get("shape", ())),
                      "value": tuple(value) if isinstance(value, list) else value,
                      "fields": tuple(cls.from_dict(f) for f in d.get("fields", ()))})

    def flattened(self) -> tuple["ArgSpec", ...]:
        """This argument as the list of hashed/compared positions (a struct's fields, or itself; a
        hash grid, a mesh or a BVH takes none: it is built from its points)."""
        if self.fields:  # a struct, or an array of records
            return tuple(x for f in self.fields for x in f.flattened())
        if self.role in ID_ROLES:
            return ()
        return (self,)

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
    """A generated kernel. `source` holds the @wp.func helpers and the @wp.kernel (no imports).

    block_dim: 0 for a kernel launched as `wp.launch(kernel, dim=dim)`; for a kernel using tiles,
    the threads per block of `wp.launch_tiled(kernel, dim=dim, block_dim=block_dim)` (one block per
    launch index)."""

    name: str
    category: str
    description: str
    source: str
    args: tuple[ArgSpec, ...]
    dim: tuple[int, ...]
    seed: int
    helpers: tuple[str, ...] = field(default=())
    block_dim: int = 0

    def to_dict(self) -> dict:
        d = asdict(self)
        d["args"] = [a.to_dict() for a in self.args]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "KernelSpec":
        args = tuple(ArgSpec.from_dict(a) for a in d["args"])
        return cls(
            name=d["name"],
            category=d["category"],
            description=d["description"],
            source=d["source"],
            args=args,
            dim=tuple(d["dim"]),
            seed=d["seed"],
            helpers=tuple(d.get("helpers", ())),
            block_dim=d.get("block_dim", 0),
        )
