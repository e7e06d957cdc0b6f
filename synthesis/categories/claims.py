"""Claims: compare-and-swap and exchange as kernels use them, one table entry per pattern (CLAIM_FORMS),
each written so that its results do not depend on which thread wins a race:

- occupied cells or distinct keys: a thread claims its key's slot in a table (`wp.atomic_cas(seen,
  k, 0, 1) == 0`, or `wp.atomic_exch(seen, k, 1) == 0`), and only the thread that claimed it counts
  it, so the count is the number of distinct keys whoever came first;
- a breadth-first search step over a graph's CSR rows: each frontier vertex claims its unvisited
  neighbours (`wp.atomic_cas(depth, v, -1, level + 1) == -1`), and the claimant marks them in the
  next frontier and counts them; a vertex is claimed once, whatever the order;
- read and reset: a thread takes its own accumulators and zeroes them for the next pass
  (`n = wp.atomic_exch(counts, tid, 0)`), as a consumer drains what producers added;
- dirty flags: a thread clears its element's flag and recomputes the element only if it was set.

Which thread claims a slot is never written anywhere (no parent, no slot order): that would be a
race. The atomic category draws these kernels (CLAIM_SHARE of it) from a stream of its own, so every
other atomic kernel keeps its draws."""
from __future__ import annotations

import random
from contextlib import nullcontext
from typing import Callable

from synthesis.categories.common import one_form_kernel
from synthesis.categories.sparse import Rows
from synthesis.exprgen import KernelWriter
from synthesis.spec import KernelSpec

CLAIM_SHARE = 0.15  # of atomic kernels


def _count(w: KernelWriter, hints: tuple[str, ...]) -> str:
    """A one-element int32 array a kernel counts into."""
    return w.add_array(w.rng.choice(hints), "int32", "output", shape=(1,))


def _claimed(w: KernelWriter, table: str, slot: str) -> str:
    """The test that the thread claimed `table[slot]` (0 before, 1 after): a compare-and-swap, or an
    exchange (the same for a flag that only ever becomes 1)."""
    if w.rng.random() < 0.6:
        return f"wp.atomic_cas({table}, {slot}, 0, 1) == 0"
    w.feature("claimed by atomic_exch")
    return f"wp.atomic_exch({table}, {slot}, 1) == 0"


def distinct_keys(w: KernelWriter) -> None:
    """The distinct keys among the threads' (a table of `seen` flags, some set by an earlier pass), or
    the occupied cells of a grid the points fall in: the claimant counts, sometimes per group too."""
    rng, n = w.rng, w.dim[0]
    if rng.random() < 0.3:  # only the active elements' keys (live particles, valid entries)
        mask = w.add_array(rng.choice(["active", "valid", "alive"]), "int32", "input", low=0, high=1, grid_bits=0)
        w.guard_return(f"{mask}[tid] == 0")
        w.feature("inactive elements skipped")
    # n keys over n or 2n slots: a third or more stay free (at n / 8 every one would be taken). A table
    # of keys grows with the launch at bench size, as the keys' range does; a grid of cells keeps its
    # cells (their count is written into the kernel: `cy * 32 + cx`), whatever the launch
    table = rng.choice([n, 2 * n])
    grid = False
    if rng.random() < 0.5:  # keys given (vertex ids, hashed ids)
        wide = rng.random() < 0.4  # keys from a wider range, mapped to slots modulo the table's size
        keys = w.add_array(rng.choice(["keys", "ids", "labels", "vertex_ids"]), "int32", "index",
                           index_high=(4 if wide else 1) * table - 1)
        seen = w.add_array(rng.choice(["seen", "visited", "taken"]), "int32", "inout", shape=(table,),
                           low=0, high=1, grid_bits=0)
        key = w.load(keys).src
        if wide:
            slot = w.fresh("slot")
            w.emit(f"{slot} = {key} % {seen}.shape[0]")
            key = slot
            w.feature("keys mapped to slots modulo the table size")
        count = _count(w, ("distinct", "num_unique", "n_new"))
        if rng.random() < 0.35:  # every key counted too: how many were duplicates
            w.emit(f"wp.atomic_add({_count(w, ('num_keys', 'total_keys', 'n_seen'))}, 0, 1)")
            w.feature("all keys counted beside the distinct ones")
        w.feature("distinct keys counted by their claimant")
    elif rng.random() < 0.5:  # the cell of a point in a plane of nx x ny cells, row by row
        nx = rng.choice([8, 16, 32])
        ny = table // nx
        width = rng.choice([0.25, 0.5, 1.0])
        p = w.add_array(rng.choice(["points", "positions", "xy"]), "vec2", "input", low=0.0,
                        high=min(nx, ny) * width - 0.125, grid_bits=3)
        pv = w.load(p).src
        cx, cy, cell = w.fresh("cx"), w.fresh("cy"), w.fresh("cell")
        per_unit = "" if width == 1.0 else f" * {1.0 / width!r}"  # cells per unit length, as people scale
        w.emit(f"{cx} = int({pv}[0]{per_unit})")
        w.emit(f"{cy} = int({pv}[1]{per_unit})")
        w.emit(f"{cell} = {cy} * {nx} + {cx}")
        key = cell
        seen = w.add_array(rng.choice(["occupied", "cell_flags", "occupancy"]), "int32", "inout", shape=(table,),
                           low=0, high=0, grid_bits=0, keeps_size=True)
        grid = True
        count = _count(w, ("num_occupied", "occupied_cells", "n_cells"))
        w.feature("occupied cells of a plane counted by their claimant")
    else:  # the cell of a point on a line of cells (values on a 1/8 grid: the cell is exact)
        width = rng.choice([0.25, 0.5, 1.0])
        # the grid's origin passed in (a multiple of 1/8, so x - origin stays exact), or at 0
        origin = rng.choice([-4.0, -1.0, 2.5]) if rng.random() < 0.3 else 0.0
        x = w.add_array(rng.choice(["x", "positions", "coords"]), "float32", "input", low=origin,
                        high=origin + table * width - 0.125, grid_bits=3)
        seen = w.add_array(rng.choice(["occupied", "cell_flags", "occupancy"]), "int32", "inout", shape=(table,),
                           low=0, high=0, grid_bits=0, keeps_size=True)
        grid = True
        value = w.load(x).src
        if origin:
            lo = w.add_scalar(rng.choice(["origin", "x_min", "lower"]), "float32", origin)
            w.retire(lo.src)
            value = f"({value} - {lo.src})"
            w.feature("cells from the grid's origin")
        cell = w.fresh("cell")
        index = f"int({value} * {1.0 / width!r})" if width != 1.0 else f"int({value})"
        if rng.random() < 0.4:  # guarded against the last edge, as grids are
            index = f"wp.min({index}, {seen}.shape[0] - 1)"
        w.emit(f"{cell} = {index}")
        key = cell
        count = _count(w, ("num_occupied", "occupied_cells", "n_cells"))
        w.feature("occupied cells counted by their claimant")
    # session 47 (a stream of its own): each slot's multiplicity counted beside the claim, the histogram
    # whose non-zero bins the claimants count (the same in any order of the threads)
    hist = breadth(w).random() < 0.35
    with w.block(f"if {_claimed(w, seen, key)}:"):
        w.emit(f"wp.atomic_add({count}, 0, 1)")
    if hist:
        hits = w.add_array(rng.choice(["multiplicity", "hits", "per_slot"]), "int32", "output", shape=(table,),
                           keeps_size=grid)
        w.emit(f"wp.atomic_add({hits}, {key}, 1)")
        w.note_bound(hits, float(n))
        w.feature("each slot's multiplicity beside the claims")


def breadth(w: KernelWriter) -> random.Random:
    """Session 47's further forms of the claims: a stream of their own per kernel, so a kernel whose
    draws there keep the earlier form draws exactly what it drew."""
    return random.Random(w.seed ^ 0xC1A1)


def bfs_step(w: KernelWriter) -> None:
    """One level of a breadth-first search over CSR rows: a frontier vertex (a flag, or its depth equal
    to the level) claims each unvisited neighbour by setting its depth, and the claimant marks the
    neighbour in the next frontier and counts it."""
    rng = w.rng
    first = len(w.lines)
    r = Rows(w, pointer_names=("row_ptr", "offsets", "adj_offsets"), column_names=("neighbors", "adj", "col_idx"))
    # `start = row_ptr[tid]`, `end = ...`, where the row's bounds are named: read by the threads that go
    # on, after the frontier test, not before it
    bounds = w.lines[first:]
    del w.lines[first:]
    level = w.add_scalar(rng.choice(["level", "depth_level", "iteration"]), "int32", rng.choice([0, 1, 2, 3]))
    w.retire(level.src)
    # depths already set up to this level, -1 where not yet visited
    depth = w.add_array(rng.choice(["depth", "dist", "levels"]), "int32", "inout", low=-1,
                        high=int(level.mag), grid_bits=0)
    flags = rng.random() < 0.5
    if flags:
        frontier = w.add_array(rng.choice(["frontier", "in_frontier", "active"]), "int32", "input", low=0, high=1,
                               grid_bits=0)
        test = f"{frontier}[tid] == 0"
        w.feature("frontier as flags")
    else:
        test = f"{depth}[tid] != {level.src}"
        w.feature("frontier as the vertices at this level")
    w.guard_return(test)
    w.lines.extend(bounds)
    marks = rng.random() < 0.7
    next_frontier = w.add_array(rng.choice(["next_frontier", "next_active", "new_frontier"]), "int32", "output") \
        if marks else None
    counted = rng.random() < 0.7 or not marks
    count = _count(w, ("discovered", "num_new", "frontier_size")) if counted else None
    # a separate visited flag claimed first, the depth stored by the claimant; or the depth claimed. Only
    # with a frontier of flags: a frontier read from the depths would race with the claimants' stores
    # (a vertex at the level whose flag is clear could be claimed and moved on before its thread runs)
    # (and rows of at most 12: with longer rows every vertex is reached and the flags end all set)
    visited = w.add_array(rng.choice(["visited", "seen", "discovered_flag"]), "int32", "inout", low=0, high=1,
                          grid_bits=0) if rng.random() < 0.3 and flags and r.longest <= 12 else None
    checked_first = rng.random() < 0.35  # an unvisited test before the atomic: fewer atomics, same outcome
    if marks or visited or checked_first:  # the neighbour is read more than once: into a local first
        r.column_local = True
    if rng.random() < 0.25:  # the frontier's edges counted (a direction-optimizing BFS's switch test)
        edges = _count(w, ("edges_checked", "frontier_edges", "m_f"))
        w.emit(f"wp.atomic_add({edges}, 0, {r.end} - {r.start})")
        w.feature("frontier edges counted")
    # session 47: the claimant adds its neighbour's degree, the next frontier's edge count (a
    # direction-optimizing BFS compares it with the unvisited edges before the next level)
    next_edges = _count(w, ("next_edges", "m_next", "next_frontier_edges")) if breadth(w).random() < 0.3 else None
    if next_edges:
        r.column_local = True
        w.feature("the next frontier's edges counted by the claimants")
    with r.loop():
        v = r.column()
        if visited:
            claim = f"wp.atomic_cas({visited}, {v}, 0, 1) == 0"
            test = f"{visited}[{v}] == 0"
        else:
            claim = f"wp.atomic_cas({depth}, {v}, -1, {level.src} + 1) == -1"
            test = f"{depth}[{v}] == -1"
        with w.block(f"if {test}:") if checked_first else nullcontext():
            with w.block(f"if {claim}:"):
                if visited:
                    w.emit(f"{depth}[{v}] = {level.src} + 1")
                if next_frontier:
                    w.emit(f"{next_frontier}[{v}] = 1")
                if count:
                    w.emit(f"wp.atomic_add({count}, 0, 1)")
                if next_edges:  # the next frontier's edges, for the next level's switch test
                    w.emit(f"wp.atomic_add({next_edges}, 0, {r.ptr}[{v} + 1] - {r.ptr}[{v}])")
    if visited:
        w.feature("a visited flag claimed, the depth stored by the claimant")
    if checked_first:
        w.feature("unvisited test before the atomic")
    for feature in r.features:
        w.feature(feature)
    w.feature("breadth-first search step (neighbours claimed by atomic_cas)")


def read_and_reset(w: KernelWriter) -> None:
    """A consumer takes its own counter (and the sums producers added beside it) and zeroes them for
    the next pass, and uses what it took: the mean of what arrived (stored, or moving a running mean),
    the variance too, a running total, an arrival rate, the non-empty bins counted, the busiest bin's count."""
    rng = w.rng
    counts = w.add_array(rng.choice(["counts", "arrivals", "hits"]), "int32", "inout", low=0, high=6, grid_bits=0)
    n = w.fresh("n")
    w.emit(f"{n} = wp.atomic_exch({counts}, tid, 0)")
    statistic = rng.choice([None, "mean", "mean", "running mean", "variance"])
    others = rng.sample(["total", "rate", "non-empty", "busiest"], rng.choice([0, 1, 1, 2]) if statistic else rng.choice([1, 2]))
    if statistic:
        sums = w.add_array(rng.choice(["sums", "accum", "deposited"]), "float32", "inout", low=-4.0, high=4.0,
                           grid_bits=3)
        s = w.fresh("s")
        w.emit(f"{s} = wp.atomic_exch({sums}, tid, 0.0)")
        sq = None
        if statistic == "variance":
            sq_sums = w.add_array(rng.choice(["sq_sums", "sum_sq", "moments2"]), "float32", "inout", low=0.0,
                                  high=16.0, grid_bits=3)
            sq = w.fresh("sq")
            w.emit(f"{sq} = wp.atomic_exch({sq_sums}, tid, 0.0)")
        with w.block(f"if {n} > 0:"):  # what arrived, where anything did
            if statistic == "mean":  # the pass's mean, where anything arrived
                mean = w.add_array(rng.choice(["mean", "avg", "average"]), "float32", "output")
                w.emit(f"{mean}[tid] = {s} / float({n})")
                w.feature("sums and counts taken and reset (atomic_exch), their mean stored")
            elif statistic == "running mean":  # moved toward the pass's mean (an exponential moving average)
                alpha = w.add_scalar(rng.choice(["alpha", "momentum", "blend"]), "float32", rng.choice([0.1, 0.25, 0.5]))
                w.retire(alpha.src)
                mean = w.add_array(rng.choice(["running_mean", "ema", "smoothed"]), "float32", "inout", low=-2.0,
                                   high=2.0, grid_bits=4)
                w.emit(f"{mean}[tid] += {alpha.src} * ({s} / float({n}) - {mean}[tid])")
                w.feature("sums and counts taken and reset (atomic_exch), a running mean moved toward their mean")
            else:  # the mean and the variance, from the sum of squares taken too
                mean = w.add_array(rng.choice(["mean", "avg"]), "float32", "output")
                var = w.add_array(rng.choice(["var", "variance"]), "float32", "output")
                m = w.fresh("m")
                w.emit(f"{m} = {s} / float({n})")
                w.emit(f"{mean}[tid] = {m}")
                w.emit(f"{var}[tid] = wp.max({sq} / float({n}) - {m} * {m}, 0.0)")
                w.feature("sums, squares and counts taken and reset (atomic_exch), mean and variance stored")
            if "non-empty" in others:  # counted in the same test
                others.remove("non-empty")
                w.emit(f"wp.atomic_add({_count(w, ('num_nonempty', 'active_bins', 'n_busy'))}, 0, 1)")
                w.feature("non-empty bins counted")
    else:
        w.feature("counts taken and reset (atomic_exch)")
    for other in others:
        if other == "total":  # carried into a running total
            total = w.add_array(rng.choice(["total", "running_count", "lifetime_hits"]), "int32", "inout", low=0,
                                high=100, grid_bits=0)
            w.emit(f"{total}[tid] += {n}")  # its own element: no atomic needed (session 55)
            w.feature("count carried into a running total")
        elif other == "rate":  # arrivals per unit time over the pass just drained
            inv_dt = w.add_scalar(rng.choice(["inv_dt", "inv_interval", "rate_scale"]), "float32",
                                  rng.choice([0.5, 2.0, 4.0, 10.0]))
            w.retire(inv_dt.src)
            rate = w.add_array(rng.choice(["rate", "arrival_rate", "hits_per_s"]), "float32", "output")
            w.emit(f"{rate}[tid] = float({n}) * {inv_dt.src}")
            w.feature("arrival rate stored")
        elif other == "non-empty":
            nonempty = _count(w, ("num_nonempty", "active_bins", "n_busy"))
            with w.block(f"if {n} > 0:"):
                w.emit(f"wp.atomic_add({nonempty}, 0, 1)")
            w.feature("non-empty bins counted")
        else:
            busiest = _count(w, ("max_count", "peak_load", "busiest"))
            w.emit(f"wp.atomic_max({busiest}, 0, {n})")
            w.feature("busiest bin's count kept")


def dirty_flags(w: KernelWriter) -> None:
    """An element recomputed only where its flag was set, the flag cleared as it is read: a cached
    value (a norm, a direction, a clamped, squashed or scaled copy) kept up to date with the data it
    derives from; sometimes its change stored too, and the recomputed elements counted."""
    rng = w.rng
    dirty = w.add_array(rng.choice(["dirty", "stale", "needs_update"]), "int32", "inout", low=0, high=1, grid_bits=0)
    vec = rng.random() < 0.5
    src = w.add_array(rng.choice(["positions", "points", "x"] if vec else ["values", "data", "x"]),
                      "vec3" if vec else "float32", "input", low=-2.0, high=2.0, grid_bits=3)
    how = rng.random()
    cache_type = "vec3" if vec and how < 0.3 else "float32"  # a direction, or a scalar
    hints = (["directions", "unit_dirs", "cached_dir"] if cache_type == "vec3" else
             ["cached_norm", "lengths", "norms"] if vec else ["cached", "derived", "cached_value"])
    cache = w.add_array(rng.choice(hints), cache_type, "inout", low=0.0, high=2.0, grid_bits=3)
    if vec:
        value = (f"wp.normalize({src}[tid])" if cache_type == "vec3" else
                 f"wp.length({src}[tid])" if how < 0.75 else f"wp.dot({src}[tid], {src}[tid])")
    elif how < 0.25:
        value = f"wp.tanh({src}[tid])"
    elif how < 0.45:
        value = f"wp.clamp({src}[tid], -1.0, 1.0)"
    elif how < 0.75:
        scale = w.add_scalar(rng.choice(["scale", "gain"]), "float32", rng.choice([0.5, 2.0, 0.25]))
        w.retire(scale.src)
        value = f"{scale.src} * {src}[tid]"
    else:
        value = f"wp.sqrt(wp.abs({src}[tid]))"
    counted = rng.random() < 0.35
    updates = _count(w, ("num_updated", "recomputed", "n_dirty")) if counted else None
    changed = rng.random() < 0.3  # how far the cached value moved, for a convergence test
    delta = w.add_array(rng.choice(["delta", "change", "moved"]), cache_type, "output") if changed else None
    test = "!= 0" if rng.random() < 0.6 else "== 1"  # flags are 0 or 1: both spellings are common
    flag = f"wp.atomic_exch({dirty}, tid, 0)"
    if rng.random() < 0.4:  # the flag taken into a local first
        was = w.fresh(rng.choice(["was_dirty", "flag"]))
        w.emit(f"{was} = {flag}")
        flag = was
    with w.block(f"if {flag} {test}:"):
        if delta:
            new_value = w.fresh("v")
            w.emit(f"{new_value} = {value}")
            w.emit(f"{delta}[tid] = {new_value} - {cache}[tid]")
            w.emit(f"{cache}[tid] = {new_value}")
            w.feature("change from the cached value stored")
        else:
            w.emit(f"{cache}[tid] = {value}")
        if updates:
            w.emit(f"wp.atomic_add({updates}, 0, 1)")
            w.feature("recomputed elements counted")
    w.feature("recomputed where a dirty flag was set, the flag cleared by atomic_exch")


CLAIM_FORMS: dict[str, Callable[[KernelWriter], None]] = {
    "distinct keys": distinct_keys,
    "BFS step": bfs_step,
    "read and reset": read_and_reset,
    "dirty flags": dirty_flags,
}
FORM_DRAWS = ("distinct keys", "BFS step", *CLAIM_FORMS)  # the claims of a slot are the common use


def chooses_claims(seed: int) -> bool:
    """Whether atomic kernel `seed` claims slots: a stream of its own, so the others keep every draw."""
    return random.Random(seed ^ 0xCA5).random() < CLAIM_SHARE


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    return one_form_kernel(rng, name, seed, "atomic", CLAIM_FORMS, FORM_DRAWS, ("num_items", "n_items", "size"),
                           "Atomic claim kernel")
