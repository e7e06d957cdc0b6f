"""Searches: a binary search over a sorted array of boundaries (`wp.lower_bound`), as kernels use one to
find which bucket or segment a value falls in, one table entry per pattern (SEARCH_FORMS):

- bucketing by splitters: a key's bucket among sorted boundaries (a sample sort's partition step, a
  histogram with uneven bins), counted per bucket by `wp.atomic_add`, with the values summed per
  bucket or the bucket stored per key;
- the segment of a flat position: with the segments' starts (a CSR's row pointers, a ragged batch's
  offsets), a position's segment and its offset within it, or a per-segment value broadcast to it.

The boundaries are an "offsets" argument (synthesis/spec.py): 0 first, non-decreasing, segments of
`lo`-`hi` (some empty where `lo` is 0), B segments holding exactly B x mean positions. The searched
array keeps its size at every launch size (a table of splitters), as the positions' range does.
`wp.lower_bound(bounds, p + 1) - 1` is the last boundary at or below p: the segment holding p, an empty
segment's start shared with the next never chosen.

The atomic category draws these kernels (SEARCH_SHARE of those that are not claims) from a stream of
its own, so every other atomic kernel keeps its draws."""
from __future__ import annotations

import random
from typing import Callable

from synthesis.categories.common import one_form_kernel
from synthesis.exprgen import KernelWriter
from synthesis.spec import KernelSpec

SEARCH_SHARE = 0.1  # of atomic kernels that are not claims
# (shortest, longest) segment; their sum even, so the mean is whole
SEGMENT_LENGTHS = ((0, 8), (2, 10), (4, 12), (1, 7), (8, 24), (16, 48))


class Bounds:
    """B sorted boundaries (an offsets array of B + 1) and the positions that search them (an index array
    over [0, B x mean - 1], one per thread)."""

    def __init__(self, w: KernelWriter, names: tuple[str, ...], position_names: tuple[str, ...],
                 quantized: bool = False) -> None:
        rng = w.rng
        self.w = w
        self.segments = rng.choice([8, 16, 32, 64])
        shortest, longest = rng.choice(SEGMENT_LENGTHS)
        self.total = self.segments * (shortest + longest) // 2
        self.bounds = w.add_array(rng.choice(names), "int32", "offsets", shape=(self.segments + 1,),
                                  low=shortest, high=longest, grid_bits=0)
        self.features = [f"{self.segments} segments of {shortest}-{longest}"]
        if quantized:  # the key a float value quantized (a depth, a distance in steps of 1/16): exact
            self.positions = w.add_array(rng.choice(("depth", "dist", "score")), "float32", "input", low=0.0,
                                         high=(self.total - 1) / 16, grid_bits=4)
            self.features.append("keys quantized from a float value")
        else:
            self.positions = w.add_array(rng.choice(position_names), "int32", "index", index_high=self.total - 1)

    def search(self, local: str, key: str | None = None) -> str:
        """`local = wp.lower_bound(bounds, p + 1) - 1`: the segment holding the thread's position (or `key`)."""
        p = key or self.w.load(self.positions).src
        name = self.w.fresh(local)
        self.w.emit(f"{name} = wp.lower_bound({self.bounds}, {p} + 1) - 1")
        return name


def bucket_counts(w: KernelWriter) -> None:
    """Each key's bucket among sorted splitters, counted per bucket; with one or two more per-bucket
    statistics of the keys' values (their sum, on a 1/8 grid so exact in any order; the largest or
    smallest so far, over a table earlier passes filled) or each key's bucket stored for the scatter
    that follows."""
    rng = w.rng
    quantized = rng.random() < 0.35
    b = Bounds(w, ("splitters", "bucket_bounds", "bin_edges"), ("keys", "sort_keys", "codes"), quantized)
    key = None
    if quantized:
        key = w.fresh("key")
        w.emit(f"{key} = int({w.load(b.positions).src} * 16.0)")
    bucket = b.search(rng.choice(["bucket", "b", "bin"]), key)
    counts = w.add_array(rng.choice(["counts", "bucket_sizes", "hist"]), "int32", "output", shape=(b.segments,))
    w.emit(f"wp.atomic_add({counts}, {bucket}, 1)")
    extras = rng.sample(["sum", "max", "min", "store"], rng.choice([1, 1, 2]))
    value = None
    for extra in extras:
        if extra == "store":
            w.emit(f"{w.add_array(rng.choice(['bucket_of', 'bucket_ids', 'assigned']), 'int32', 'output')}[tid] = {bucket}")
            b.features.append("bucket stored per key")
            continue
        if value is None:
            values = w.add_array(rng.choice(["values", "weights", "payload"]), "float32", "input", low=-4.0, high=4.0,
                                 grid_bits=3)
            value = w.load(values).src
        hints = {"sum": ("sums", "bucket_sums", "totals"), "max": ("bucket_max", "peak", "largest"),
                 "min": ("bucket_min", "lowest", "smallest")}[extra]
        # a largest or smallest so far: the table holds earlier passes' (an output starting at 0 would
        # hold max(0, ...), which no one means)
        # (its earlier values reach past this pass's, so some buckets keep theirs)
        low, high = {"sum": (0.0, 0.0), "max": (-4.0, 8.0), "min": (-8.0, 4.0)}[extra]
        table = w.add_array(rng.choice(hints), "float32", "output" if extra == "sum" else "inout",
                            shape=(b.segments,), low=low, high=high, grid_bits=3)
        w.emit(f"wp.atomic_{'add' if extra == 'sum' else extra}({table}, {bucket}, {value})")
        b.features.append({"sum": "values summed per bucket", "max": "largest value per bucket so far",
                           "min": "smallest value per bucket so far"}[extra])
    for feature in b.features:
        w.feature(feature)
    w.feature("keys bucketed by binary search over sorted splitters (wp.lower_bound), counted per bucket")


def segment_of_position(w: KernelWriter) -> None:
    """A flat position's segment among the segments' starts, and two or three things that follow from
    it: the segment stored, the offset within it, the position's parameter along its segment (a point's
    place along its strand), the segment's length, a
    per-segment value broadcast to it (a ragged batch's per-sequence scale), its value summed into its
    segment (on a 1/8 grid: exact in any order). Two or three of them: a kernel that only finds the
    segment is one line, and the data held many copies of it."""
    rng = w.rng
    b = Bounds(w, ("starts", "seg_offsets", "row_ptr", "batch_offsets"), ("positions", "flat_idx", "item_ids"))
    seg = b.search(rng.choice(["seg", "row", "s"]))
    p = w.load(b.positions).src
    # (a first-position flag, `wp.where(p == start, 1, 0)`, was left out: realism's sampled evaluation
    # draws p and start apart, never equal, and calls the flag a constant)
    uses = rng.sample(["segment", "offset", "parameter", "length", "broadcast", "sum"], rng.choice([2, 2, 3]))
    start = None

    def segment_start() -> str:
        nonlocal start
        if start is None:
            start = w.fresh("start")
            w.emit(f"{start} = {b.bounds}[{seg}]")
        return start

    def out(hints: tuple[str, ...], dtype: str = "int32") -> str:
        return w.add_array(rng.choice(hints), dtype, "output")

    x = None
    for use in uses:
        if use == "segment":
            w.emit(f"{out(('seg_ids', 'row_of', 'segment'))}[tid] = {seg}")
        elif use == "offset":
            w.emit(f"{out(('local_idx', 'offset_in_seg', 'col'))}[tid] = {p} - {segment_start()}")
        elif use == "parameter":  # 0 at the segment's first position, 1 at its last
            length = f"{b.bounds}[{seg} + 1] - {segment_start()}"
            w.emit(f"{out(('t', 'param', 'u_along'), 'float32')}[tid] = float({p} - {segment_start()}) / "
                   f"float(wp.max({length} - 1, 1))")
        elif use == "length":
            w.emit(f"{out(('seg_len', 'row_len', 'length'))}[tid] = {b.bounds}[{seg} + 1] - {segment_start()}")
        else:
            if x is None:
                xs = w.add_array(rng.choice(["x", "values", "tokens"]), "float32", "input", low=-4.0, high=4.0,
                                 grid_bits=3)
                x = w.load(xs).src
            if use == "broadcast":
                scale = w.add_array(rng.choice(["seg_scale", "row_weight", "per_seq"]), "float32", "input",
                                    shape=(b.segments,), low=-2.0, high=2.0, grid_bits=4)
                w.emit(f"{out(('out', 'scaled', 'y'), 'float32')}[tid] = {scale}[{seg}] * {x}")
            else:
                sums = w.add_array(rng.choice(["seg_sums", "row_sums", "per_seq_total"]), "float32", "output",
                                   shape=(b.segments,))
                w.emit(f"wp.atomic_add({sums}, {seg}, {x})")
        b.features.append({"segment": "segment stored", "offset": "offset within the segment stored",
                           "parameter": "parameter along the segment stored", "length": "segment length stored",
                           "broadcast": "per-segment value broadcast to its positions",
                           "sum": "values summed per segment"}[use])
    for feature in b.features:
        w.feature(feature)
    w.feature("segment of a flat position by binary search over the starts (wp.lower_bound)")


SEARCH_FORMS: dict[str, Callable[[KernelWriter], None]] = {
    "bucket counts": bucket_counts,
    "segment of a position": segment_of_position,
}


def chooses_search(seed: int) -> bool:
    """Whether atomic kernel `seed` (not a claim kernel) searches sorted boundaries: a stream of its own,
    so the others keep every draw."""
    return random.Random(seed ^ 0x5EA).random() < SEARCH_SHARE


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    return one_form_kernel(rng, name, seed, "atomic", SEARCH_FORMS, tuple(SEARCH_FORMS), ("num_keys", "n_items", "size"),
                           "Binary-search kernel")
