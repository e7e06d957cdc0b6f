"""The benchmark size of a sample, and how each of its arrays scales to it: one rule for the .cu
(`--bench`), metadata.json, the Warp side-by-side and the tests.

A sample's check size (at most ~1,024 threads) is too small to time the kernel: a launch is over
before the GPU fills. The bench size multiplies the outermost launch dimension until the launch
has 2**22-2**24 threads (fewer threads when each moves many bytes), and within the grid limits of
the sample's block shape. A wp.launch_tiled kernel (block_dim threads per launch index, each moving
a share of its block's tiles) grows down from 2**24 threads to as few as 2**18 while a launch moves
more than the target bytes (MIN_TILED_THREADS). A kernel querying a mesh stops at 2**20 threads
(MESH_THREADS): each query is a BVH traversal, compute- and latency-bound, not a few bytes.

Scaling rule, per array argument:
  * an array with at least the launch's dimensions whose outermost dimension is K times the launch's
    outermost grows with it: shaped like the launch (K = 1: `x[n]`, `table[n, 5]` for a 1-D launch
    of n, `u[n, m]` for a launch of (n, m)), K entries per thread (`a[tid * K + n]`), or K rows per
    block of tiles (`x[blocks * TILE_M, K]`, `c[blocks * TILE_M, cols * TILE_N]` for a
    wp.launch_tiled grid of (blocks, cols)). Its outermost dimension becomes K times the bench
    launch's outermost dimension, its other dimensions stay (so do the launch's inner extents);
  * so does a 1-D array under a launch of more dimensions that the generator declares read by the
    outermost index alone (ArgSpec.per_row: a scale, a label or a token id per row), K = 1;
  * every other array (lookup tables, weights, histogram and atomic targets) keeps its size, and so does
    one declared to (ArgSpec.keeps_size: a convolution's C_out x C_in x K x K filters, whose outermost
    extent is a multiple of the batch's but which no launch index owns rows of);
  * index arrays scale like any other array by their shape. Their values keep their range, so every
    index stays valid for the array it points into (whose size does not shrink), unless they index
    arrays that grow (`index_scale`: the range [0, K x check outer - 1] is the extent of arrays that
    all grow): then the range grows with them, [0, K x bench outer - 1], so a gather reads across the
    grown arrays as it does at check size, not over and over within their first rows;
  * a hash grid over a points array that grows keeps its density (points per cell, so neighbours per
    query): with s the integer cube root of the growth (the largest s with s**3 <= bench outer //
    check outer launch dimension), the points' value range (low, high) is multiplied by s on the same
    grid step (grid_bits), and the grid's cells per axis by s, up to MAX_GRID_DIM (never below the
    check size). An integer s keeps the points on their grid and the .cu's arithmetic exact; the
    density stays within (1 + 1/s)**3 of the check size's (s = 16-25 at the usual sizes: within 5%).
    Past the cap the domain wraps onto the grid: as many neighbours per query, more candidates per cell.
  * a mesh keeps its size: the queries (points, rays) grow with the launch, the surface they query
    does not (MESH_RULE).
  * an int scalar that counts a padded launch's elements (`if tid >= n: return`, ArgSpec.launch_bound)
    keeps its distance below the launch's outermost extent: n = bench outer - (check outer - n), so
    the bench times as few idle threads as the check runs, not a launch of millions that all return.
  * a compressed sparse row's pointers (role offsets, K x rows + 1 elements: `extra_rows`) grow as its
    rows do, plus its one: the same row lengths, their total (rows x mean) the size of the grown arrays
    of entries they index.
Inputs are the same counter hash of (seed, argument position, element), so any size is reproducible
(reference.make_input at the bench shapes).

Byte count per launch (BYTE_RULE): every array the kernel reads (roles input, inout, index, offsets) counts
once in full as read, every array it writes (output, inout) once in full as written: the least
traffic a launch must move through device memory, whatever caches do for repeated accesses. A hash
grid counts its point_ids (one int per point, every one visited by some query) as read, not its
per-cell start/end tables: a query reads only the cells it visits, and most cells may be empty. A
mesh adds nothing: its points, triangles and BVH are small, cached and shared by every query.
"""
from __future__ import annotations

from dataclasses import replace
from math import prod

from synthesis.spec import ArgSpec

MIN_THREADS = 2**22
# A wp.launch_tiled launch: each thread moves its share of a tile (often tens of elements), so 2**22
# threads would mean arrays of 2**25-2**28 elements; its floor is 2**18 threads (about 8 waves of
# a 132-SM GPU at 2,048 resident threads per SM) and the byte target sets its size above that.
MIN_TILED_THREADS = 2**18
MAX_THREADS = 2**24
# A kernel querying a mesh: each thread traverses a BVH (a closest point, rays), up to 24 times (a
# finite-difference gradient of signed distances: 6 queries of a point and 3 sign rays each); on an
# H100 that took 2-60 ns per thread. 2**20 threads are about 9 waves at the occupancy these kernels
# reach (about 72 registers) and keep `make bench` (22 replays of 20 launches) within a minute; at
# 2**22 the heaviest ran past verify_gpu.py's minute. A kernel querying a BVH of points has the same
# cap: its queries are traversals too, and main() builds the tree over the grown points on the host
# (a median split sorting each node's items: about a second for 2**20 points).
MESH_THREADS = 2**20
TARGET_BYTES = 2**27  # bytes moved per launch the size aims at: ~45 us on a 3 TB/s GPU

THREADS_PER_BLOCK = 256
MAX_GRID_YZ = 65535  # CUDA's limit on gridDim.y and gridDim.z
MAX_BLOCK_Z = 64  # CUDA's limit on blockDim.z
MIN_USE = 0.8  # least share of a block's threads along an axis that fall inside the launch

MAX_GRID_DIM = 256  # a hash grid's cells per axis at bench size, at most (256^3 cells: 2 x 64 MiB of cell tables)

# (a CSR's row pointers, role offsets, are read in full too; the stored BYTE_RULE text predates them)
READ_ROLES = ("input", "inout", "index", "offsets")
WRITTEN_ROLES = ("output", "inout")

SCALING_RULE = ("arrays with at least the launch's dimensions whose outermost dimension is K x the launch's "
                "outermost (K = 1: shaped like the launch; K rows per thread, e.g. `a[tid * K + n]`; K rows per "
                "block of tiles, e.g. `offset=(i * TILE_M, j * TILE_N)`) grow with the launch: outermost "
                "dimension K x the bench launch's, inner dimensions kept; all other arrays "
                "(lookup tables, weights, histogram/atomic targets) keep their size; index arrays keep "
                "their value range; inputs are the same counter hash at the new shapes; a hash grid or BVH over a "
                "growing points array keeps its density: with s = the integer cube root of the growth "
                "(largest s with s^3 <= bench outer // check outer), the points' value range (low, high) "
                "is multiplied by s on the same grid step and a grid's cells per axis by s, at most "
                f"{MAX_GRID_DIM} (never below the check size); a BVH is built over the grown points; an int "
                "scalar counting a padded launch's elements (`if tid >= n: return`) keeps its distance below "
                "the launch's outermost extent; an index array whose range [0, K x check outer - 1] is the extent "
                "of arrays that all grow indexes them across their bench extent, [0, K x bench outer - 1]")
BYTE_RULE = ("per launch: bytes_read = full size of every array with role input, inout or index; "
             "bytes_written = full size of every array with role output or inout; each array counted "
             "once (the compulsory device-memory traffic); a hash grid adds its point_ids and a BVH its "
             "item order (4 bytes per point) to bytes_read, not their per-cell tables or tree nodes; GB/s = (bytes_read + bytes_written) / "
             "median time per launch; peak = 2 * memory clock * bus width / 8")


def _axis_block(extent: int, most: int) -> int:
    """Largest power of two <= `most` whose blocks leave at most 20% of threads past `extent`."""
    size = most
    while size > 1 and extent / (-(-extent // size) * size) < MIN_USE:
        size //= 2
    return size


def block_shape(launch_dim: tuple[int, ...]) -> tuple[int, ...]:
    """Threads per block along x, y[, z]; x covers the last launch dimension, the outermost one the
    last axis. For a 2-D launch the block's x fits the inner extent (fixed by the sample: only the
    outermost grows at bench size): a (16, 16) block over rows of 8 leaves half its threads idle,
    which measured 0.73x Warp's speed (Warp launches a flat grid and divides; a fitted block needs no
    division). 3-D launches whose inner extents fill 8 x 8 keep (8, 8, 4), measured at least Warp's
    speed; smaller inner extents get a fitted block too: an (8, 8, 4) block over a [N, 10, 4] launch
    left 69% of its threads idle and ran at 0.80x Warp's speed, a (4, 4, 16) one 1.6x (H100); inner
    extents of at most 32 threads get a block of exactly their shape, and so does a 2-D launch's row
    shorter than a warp that is not a power of two. A 4-D launch (n, c, y, x) gets
    (x, y, planes): z counts its (n, c) image planes (the translator's index mapping)."""
    if len(launch_dim) == 1:
        return (THREADS_PER_BLOCK,)
    if len(launch_dim) == 4:
        # (n, c, y, x): the block spans the image's rows and columns like a 2-D launch's, and as many
        # image planes (n, c) along z as fill it: 64-thread blocks over 8 x 8 images, one plane each,
        # ran at 0.74-0.87x Warp's speed (H200), whose flat 256-thread blocks hold four planes
        if launch_dim[2] * launch_dim[3] <= 32:  # tiny images: the block spans each exactly (as a 3-D launch's)
            return (launch_dim[3], launch_dim[2], min(MAX_BLOCK_Z, THREADS_PER_BLOCK // (launch_dim[2] * launch_dim[3])))
        x = _axis_block(launch_dim[3], 32)
        y = _axis_block(launch_dim[2], THREADS_PER_BLOCK // x)
        return (x, y, min(MAX_BLOCK_Z, THREADS_PER_BLOCK // (x * y)))
    if len(launch_dim) == 3:
        if all(_axis_block(extent, 8) == 8 for extent in launch_dim[1:]):
            return (8, 8, 4)
        inner = launch_dim[1] * launch_dim[2]
        if inner <= 32:  # so the outermost extent keeps at least 8 threads per block
            # The block spans the inner extents exactly (not a power of two): consecutive threads
            # then read consecutive elements of a row-major array, with no idle thread. A
            # power-of-two (2, 2, 64) block over [N, 5, 6] ran at 0.79x Warp's speed (H100).
            return (launch_dim[2], launch_dim[1], min(MAX_BLOCK_Z, THREADS_PER_BLOCK // inner))
        x = _axis_block(launch_dim[2], 32)
        y = _axis_block(launch_dim[1], THREADS_PER_BLOCK // x)
        return (x, y, min(MAX_BLOCK_Z, THREADS_PER_BLOCK // (x * y)))
    inner = launch_dim[-1]
    if inner <= 32 and inner & (inner - 1):
        # rows shorter than a warp and not a power of two: the block spans whole rows (x = the row's
        # length), so consecutive threads read consecutive elements across rows, as Warp's flat
        # launch does; an (8, 32) block over rows of 20 left 17% of its threads idle and split each
        # warp's reads over four rows: 0.79x Warp's speed (H200, session 50). As many rows as make
        # whole warps where some count does.
        rows = THREADS_PER_BLOCK // inner
        return (inner, next((y for y in range(rows, 0, -1) if inner * y % 32 == 0), rows))
    x = _axis_block(inner, 32)
    return (x, THREADS_PER_BLOCK // x)


def max_outer(launch_dim: tuple[int, ...]) -> int:
    """Largest outermost launch dimension the grid allows with block_shape's block."""
    if len(launch_dim) == 1:
        return 2**31 - 1
    if len(launch_dim) == 4:  # the grid's z holds every (n, c) plane, block_shape's z of them per block
        return MAX_GRID_YZ * block_shape(launch_dim)[2] // launch_dim[1]
    return MAX_GRID_YZ * block_shape(launch_dim)[-1]


def array_args(args: list[ArgSpec]) -> list[ArgSpec]:
    """Every array argument, struct fields included, in hashed-position order."""
    return [a for arg in args for a in arg.flattened() if a.is_array]


def scale_factor(arg: ArgSpec, launch_dim: tuple[int, ...]) -> int:
    """How many of `arg`'s outermost rows each outermost launch index owns, if it grows with the
    launch: 1 for an array shaped like the launch, K for one holding K entries per thread
    (`adjacency[tid * K + n]`) or K rows per block of tiles (`offset=(i * K, j * TILE_N)` in a 2-D
    grid of tiles, whose inner extents are tile multiples of the launch's, not equal to them); 0 for
    an array that keeps its size. Only the outermost dimension decides: the inner launch extents stay
    at bench size, so an array's inner extents do too, whatever they are. (Required equal to the
    launch's before session 28: in 10,000 generated kernels no array of a 2-D or 3-D launch scaled
    differently under the two rules.)"""
    if not arg.is_array or arg.keeps_size:
        return 0
    if arg.ndim < len(launch_dim):  # a row's own value grows with the rows; any other keeps its size
        return 1 if arg.per_row and arg.shape[0] == launch_dim[0] else 0
    outer, rows = launch_dim[0], arg.shape[0] - extra_rows(arg)
    return rows // outer if rows % outer == 0 else 0


def extra_rows(arg: ArgSpec) -> int:
    """Rows an array holds beyond those its launch indices own: a compressed sparse row's pointer array
    has one more than its rows (the last row's end), at every size."""
    return 1 if arg.role == "offsets" else 0


SMALL_TABLE = 256  # elements: warp-aggregated atomics measured 2.4x-10x faster on 4-32 targets, even at 4,096


def small_tables(args: list[ArgSpec], launch_dim: tuple[int, ...]) -> dict[str, int]:
    """Written arrays that keep a small fixed size at every launch size (histograms, totals), with their
    element counts: many threads of a launch update each element, so their atomics are worth
    aggregating per warp, or counting per block first (an integer table: translator.privatizable_tables)."""
    return {a.name: a.size for a in args if a.is_array and a.is_written and not scales(a, launch_dim)
            and a.size <= SMALL_TABLE}


def scales(arg: ArgSpec, launch_dim: tuple[int, ...]) -> bool:
    """Whether `arg` grows with the launch (see scale_factor)."""
    return scale_factor(arg, launch_dim) > 0


def index_scale(arg: ArgSpec, args: list[ArgSpec], launch_dim: tuple[int, ...]) -> int:
    """K when `arg`, an index array, holds indices into arrays that grow with the launch: its values
    span [0, high] with high + 1 = K x the launch's outermost extent, and every array argument whose
    outermost extent is high + 1 grows (there is at least one). At bench size its values span the
    grown arrays, [0, K x bench outer - 1], so a gather reads across them as it does at check size,
    not within their first rows. 0: the values keep their range (a bin, a group, a table's rows)."""
    if arg.role != "index" or arg.low != 0 or (int(arg.high) + 1) % launch_dim[0]:
        return 0
    extent = int(arg.high) + 1
    targets = [a for a in array_args(args) if a.shape and a.shape[0] == extent]
    if not targets or not all(scales(a, launch_dim) for a in targets):
        return 0
    return extent // launch_dim[0]


def bytes_per_thread(args: list[ArgSpec], launch_dim: tuple[int, ...]) -> int:
    """Bytes the arrays that scale move per launch index (read and written counted separately; a hash
    grid's point_ids with its points), rounded up: what they move per outermost launch index (K rows
    each, inner extents whole) shared by the launch's inner extents."""
    per_outer = 0
    for a in array_args(args):
        if scales(a, launch_dim):
            per = a.width * a.component_bytes * prod(a.shape[1:]) * scale_factor(a, launch_dim)
            per_outer += per * ((a.role in READ_ROLES) + (a.role in WRITTEN_ROLES))
    for grid in hash_grids(args):
        points = grid_points(grid, args)
        if scales(points, launch_dim):
            per_outer += POINT_ID_BYTES * prod(points.shape[1:]) * scale_factor(points, launch_dim)
    inner = prod(launch_dim[1:])
    return -(-per_outer // inner)


# ---- hash grids ----------------------------------------------------------------------------------
POINT_ID_BYTES = 4  # one int per point in a grid's point_ids


def hash_grids(args: list[ArgSpec]) -> list[ArgSpec]:
    """The hash grids and BVHs: both are built over a vec3 array of points (`points`), whose domain grows at
    bench size to keep their density, and both read one int per point per launch (a grid's point_ids,
    a BVH's item order)."""
    return [a for a in args if a.role in ("hash_grid", "bvh")]


def grid_points(grid: ArgSpec, args: list[ArgSpec]) -> ArgSpec:
    """The vec3 array argument a hash grid or BVH is built over (`grid.points`)."""
    found = [a for a in args if a.name == grid.points and a.is_array]
    if not found or found[0].dtype != "vec3":
        what = "BVH" if grid.role == "bvh" else "hash grid"
        raise ValueError(f"{what} '{grid.name}' names '{grid.points}', which is no vec3 array argument")
    return found[0]


def domain_scale(growth: int) -> int:
    """How much a hash grid's domain and cells per axis grow when its points grow `growth`-fold:
    the integer cube root (the largest s with s**3 <= growth; 1 for no growth). An integer, so that
    the points stay on their grid step and the .cu computes it exactly as here (integer_cbrt)."""
    s = 1
    while (s + 1) ** 3 <= growth:
        s += 1
    return s


def grid_scale(grid: ArgSpec, args: list[ArgSpec], launch_dim: tuple[int, ...], bench_dim: tuple[int, ...]) -> int:
    """A hash grid's domain_scale at `bench_dim`: its points' growth, when they grow with the launch."""
    if not scales(grid_points(grid, args), launch_dim):
        return 1
    return domain_scale(bench_dim[0] // launch_dim[0])


def grid_dims(grid: ArgSpec, scale: int) -> tuple[int, ...]:
    """A hash grid's cells per axis, grown by `scale` up to MAX_GRID_DIM (never below its own)."""
    return tuple(max(d, min(d * scale, MAX_GRID_DIM)) for d in grid.shape)


# ---- meshes --------------------------------------------------------------------------------------
MESH_RULE = ("a mesh keeps its size at bench size (the queries grow with the launch, the surface does not; "
             f"a kernel taking a mesh grows to at most {MESH_THREADS} threads: its queries are BVH traversals); "
             "bytes_read counts the query arrays only: the mesh's points, triangles and BVH are read by every "
             "query from the caches and are not counted")


def meshes(args: list[ArgSpec]) -> list[ArgSpec]:
    return [a for a in args if a.role == "mesh"]


def mesh_metadata(mesh: ArgSpec) -> dict:
    """A mesh argument as metadata.json records it: the rock of synthesis/mesh_geometry.py."""
    from synthesis.mesh_geometry import rock_triangle_count, rock_vertex_count

    cells = mesh.shape[0]
    return {"cells": cells, "cell_width": float(mesh.value), "triangles": rock_triangle_count(cells),
            "vertices": rock_vertex_count(cells), "rule": MESH_RULE}


def pinned_launch(args: list[ArgSpec], launch_dim: tuple[int, ...]) -> bool:
    """Whether the launch keeps its check size at bench size: every array shaped exactly like the
    launch (those its threads index by their launch indices) keeps its size (ArgSpec.keeps_size: the
    kernel's code holds its extents as literals, a fixed 64 x 48 image's `ii < 64`). Grown, the launch
    would index past them, and its threads past the literal extents would all take the border's path:
    such a kernel is timed at its own size. One such array among others that grow (a table of cells
    that happens to hold as many cells as there are threads) pins nothing."""
    shaped = [a for a in array_args(args) if tuple(a.shape) == tuple(launch_dim)]
    return bool(shaped) and all(a.keeps_size for a in shaped)


def bench_launch_dim(args: list[ArgSpec], launch_dim: tuple[int, ...], threads_per_index: int = 1) -> tuple[int, ...]:
    """The launch at bench size: the outermost dimension grown, the others kept. A one-thread launch
    stays one thread: such a kernel is serial code (a scan, a counter), and copies of it running at
    once would race on the same elements; a pinned launch (pinned_launch) keeps its size too. `threads_per_index`: threads per launch index (a
    wp.launch_tiled kernel runs a block of block_dim threads per index). A kernel taking a mesh or a BVH
    grows to at most MESH_THREADS threads."""
    if prod(launch_dim) == 1 or pinned_launch(args, launch_dim):
        return tuple(launch_dim)
    per_thread = max(1, bytes_per_thread(args, launch_dim))
    threads = max(1, MAX_THREADS // threads_per_index)
    floor = (MIN_TILED_THREADS if threads_per_index > 1 else MIN_THREADS) // threads_per_index
    while threads > floor and threads * per_thread > TARGET_BYTES:
        threads //= 2
    if meshes(args) or any(a.role == "bvh" for a in args):  # BVH traversals; and main() builds a BVH's tree
        threads = min(threads, MESH_THREADS)
    inner = prod(launch_dim[1:])
    outer = max(launch_dim[0], min(-(-threads // inner), max_outer(launch_dim)))
    return (outer, *launch_dim[1:])


def bench_shape(arg: ArgSpec, launch_dim: tuple[int, ...], bench_dim: tuple[int, ...]) -> tuple[int, ...]:
    if not scales(arg, launch_dim):
        return tuple(arg.shape)
    return (scale_factor(arg, launch_dim) * bench_dim[0] + extra_rows(arg), *arg.shape[1:])


def bench_count(arg: ArgSpec, launch_dim: tuple[int, ...], bench_dim: tuple[int, ...]) -> int:
    """A padded launch's element count at bench size: as far below the launch's outermost extent as
    at check size."""
    return bench_dim[0] - (launch_dim[0] - int(arg.value))


def bench_args(args: list[ArgSpec], launch_dim: tuple[int, ...], bench_dim: tuple[int, ...]) -> list[ArgSpec]:
    """`args` with every array at its bench shape (struct fields too), and every hash grid with its
    points' domain and its cells per axis grown to keep its density."""
    domains = {g.points: grid_scale(g, args, launch_dim, bench_dim) for g in hash_grids(args)}
    index_rows = {a.name: index_scale(a, args, launch_dim) * bench_dim[0] for a in array_args(args)}

    def resize(a: ArgSpec) -> ArgSpec:
        if a.role == "struct":
            return replace(a, fields=tuple(resize(f) for f in a.fields))
        if a.is_records:  # the records and each member's array grow together
            return replace(a, shape=bench_shape(a, launch_dim, bench_dim), fields=tuple(resize(f) for f in a.fields))
        if a.role == "hash_grid":
            return replace(a, shape=grid_dims(a, domains[a.points]))
        if a.role == "bvh":  # rebuilt over its grown points
            return a
        if a.launch_bound:
            n = bench_count(a, launch_dim, bench_dim)
            return replace(a, low=n, high=n, value=n)
        if not a.is_array:
            return a
        sized = replace(a, shape=bench_shape(a, launch_dim, bench_dim))
        if index_rows.get(a.name):
            sized = replace(sized, high=index_rows[a.name] - 1)
        s = domains.get(a.name, 1)
        return replace(sized, low=a.low * s, high=a.high * s) if s > 1 else sized
    return [resize(a) for a in args]


def bytes_moved(args: list[ArgSpec]) -> tuple[int, int]:
    """(bytes read, bytes written) per launch under BYTE_RULE, for arrays at their given shapes."""
    read = written = 0
    for a in array_args(args):
        nbytes = a.size * a.width * a.component_bytes
        read += nbytes if a.role in READ_ROLES else 0
        written += nbytes if a.role in WRITTEN_ROLES else 0
    read += sum(POINT_ID_BYTES * grid_points(g, args).size for g in hash_grids(args))
    return read, written


def bench_metadata(args: list[ArgSpec], launch_dim: tuple[int, ...], threads_per_index: int = 1) -> dict:
    """The `bench` entry of metadata.json: size, per-array scaling and the byte count."""
    dim = bench_launch_dim(args, launch_dim, threads_per_index)
    sized = bench_args(args, launch_dim, dim)
    read, written = bytes_moved(sized)
    index_ranges = {a.name: [0, int(b.high)] for a, b in zip(array_args(args), array_args(sized))
                    if index_scale(a, args, launch_dim)}
    grids, bvhs = {}, {}  # each at bench size: its points' domain scale and range; a grid's cells per axis
    for g, b in zip(hash_grids(args), hash_grids(sized)):
        points, scale = grid_points(b, sized), grid_scale(g, args, launch_dim, dim)
        if g.role == "bvh":
            bvhs[g.name] = {"points": g.points, "domain_scale": scale, "points_range": [points.low, points.high],
                            "half_width": float(g.value), "items": points.size}
        else:
            grids[g.name] = {"points": g.points, "domain_scale": scale, "shape": list(b.shape),
                             "points_range": [points.low, points.high]}
    return {
        "launch_dim": list(dim),
        "threads": prod(dim) * threads_per_index,
        "arrays": {a.name: {"scales": scales(a, launch_dim), "shape": list(b.shape)}
                   for a, b in zip(array_args(args), array_args(sized))},
        **({"hash_grids": grids} if grids else {}),
        **({"bvhs": bvhs} if bvhs else {}),
        **({"meshes": {m.name: mesh_metadata(m) for m in meshes(args)}} if meshes(args) else {}),
        **({"scalars": {a.name: b.value for a, b in zip(args, sized) if a.launch_bound}}
           if any(a.launch_bound for a in args) else {}),
        **({"index_ranges": index_ranges} if index_ranges else {}),
        "bytes_read": read,
        "bytes_written": written,
        "scaling_rule": SCALING_RULE,
        "byte_rule": BYTE_RULE,
        "command": "make bench   (./<kernel> --bench [--bench-dim N] [--launches N] [--trials N] [--dump FILE])",
    }
