"""The binary-search kernels (synthesis/categories/searches.py): each kernel's written arrays, run by Warp
on the CPU, are what numpy gives for the segment holding each position (the last boundary at or below
it: `np.searchsorted(..., side="right") - 1`, another formulation than the kernel's `lower_bound(p + 1)
- 1`), bucket counts and sums, offsets within segments and per-segment values broadcast; the
boundaries are sorted with exactly B x mean positions; and the atomic kernels that search nothing keep
their draws."""
from __future__ import annotations

import functools

import numpy as np
import pytest

from synthesis.categories import claims, generate, searches
from synthesis.spec import KernelSpec
from tests.cuda_production.harness import warp_runs
from tests.synthesis.shares import assert_others_keep_their_draws


def _search_seeds(count: int) -> list[int]:
    return [s for s in range(3000) if not claims.chooses_claims(s) and searches.chooses_search(s)][:count]


@functools.lru_cache(maxsize=None)
def _runs() -> tuple[tuple[KernelSpec, dict, dict], ...]:
    return warp_runs([generate("atomic", s) for s in _search_seeds(120)], "test_searches")


def _arg(spec: KernelSpec, hints: tuple[str, ...]) -> str | None:
    """The argument named by one of the generator's hints (names are unique per kernel)."""
    return next((a.name for a in spec.args if a.name in hints), None)


def _positions(spec: KernelSpec, given: dict) -> np.ndarray:
    """What each thread searches for: its position (an index array), or its key quantized from a float
    value in steps of 1/16."""
    quantized = _arg(spec, ("depth", "dist", "score"))
    if quantized:
        return np.floor(given[quantized].astype(np.float64) * 16.0).astype(np.int64)
    [positions] = [a.name for a in spec.args if a.role == "index"]
    return given[positions].astype(np.int64)


def _expected(spec: KernelSpec, given: dict) -> dict:
    [bounds] = [a.name for a in spec.args if a.role == "offsets"]
    starts, p = given[bounds].astype(np.int64), _positions(spec, given)
    active = np.ones(len(p), dtype=bool)
    if "padded launch" in spec.description:
        active[next(int(a.value) for a in spec.args if a.role == "scalar"):] = False
    seg = np.searchsorted(starts, p, side="right") - 1
    assert np.all((starts[seg] <= p) & (p < starts[seg + 1]))  # a non-empty segment holds each position
    segments, start, length = len(starts) - 1, starts[seg], starts[seg + 1] - starts[seg]
    x = given[_arg(spec, ("values", "weights", "payload", "x", "tokens"))].astype(np.float64) \
        if _arg(spec, ("values", "weights", "payload", "x", "tokens")) else None

    def per_segment(how: str, table: str) -> np.ndarray:
        """The active positions' values per segment: summed (from 0), or the largest or smallest so far
        (from the table's values before the launch)."""
        out = np.zeros(segments) if how == "sum" else given[table].astype(np.float64).copy()
        for k in range(segments):
            chosen = x[active & (seg == k)]
            if len(chosen):
                out[k] = chosen.sum() if how == "sum" else max(out[k], chosen.max()) if how == "max" \
                    else min(out[k], chosen.min())
        return out

    per_position = {  # hints of each per-position output -> its value at an active position
        ("bucket_of", "bucket_ids", "assigned", "seg_ids", "row_of", "segment"): seg,
        ("local_idx", "offset_in_seg", "col"): p - start,
        ("t", "param", "u_along"): (p - start) / np.maximum(length - 1, 1),
        ("seg_len", "row_len", "length"): length,
    }
    expected = {}
    for hints, value in per_position.items():
        name = _arg(spec, hints)
        if name:
            expected[name] = np.where(active, value, 0)
    scale = _arg(spec, ("seg_scale", "row_weight", "per_seq"))
    if scale:
        expected[_arg(spec, ("out", "scaled", "y"))] = np.where(active, given[scale].astype(np.float64)[seg] * x, 0)
    counts = _arg(spec, ("counts", "bucket_sizes", "hist"))
    if counts:
        expected[counts] = np.bincount(seg[active], minlength=segments)
    for hints, how in ((("sums", "bucket_sums", "totals", "seg_sums", "row_sums", "per_seq_total"), "sum"),
                       (("bucket_max", "peak", "largest"), "max"), (("bucket_min", "lowest", "smallest"), "min")):
        name = _arg(spec, hints)
        if name:
            expected[name] = per_segment(how, name)
    return expected


@pytest.mark.parametrize("part", range(2))
def test_every_written_array_is_what_the_segment_of_each_position_gives(part):
    descriptions = set()
    for spec, given, written in _runs()[part::2]:
        expected = _expected(spec, given)
        assert set(expected) == set(written), spec.source
        for name, values in expected.items():
            np.testing.assert_allclose(written[name], values, rtol=1e-6, atol=1e-6, err_msg=f"{name}\n{spec.source}")
        descriptions.add(spec.description)
    for variant in ("values summed per bucket", "largest value per bucket so far", "smallest value per bucket so far",
                    "bucket stored per key", "segment stored", "offset within the segment stored",
                    "parameter along the segment stored", "segment length stored",
                    "per-segment value broadcast", "values summed per segment", "padded launch", "keys quantized from a float value"):
        assert any(variant in d for d in descriptions), variant


def test_the_boundaries_are_sorted_from_zero_with_exactly_b_times_mean_positions():
    for spec, given, _ in _runs():
        [bounds] = [a.name for a in spec.args if a.role == "offsets"]
        starts = given[bounds].astype(np.int64)
        arg = next(a for a in spec.args if a.name == bounds)
        assert starts[0] == 0 and np.all(np.diff(starts) >= arg.low) and np.all(np.diff(starts) <= arg.high)
        total = (len(starts) - 1) * (int(arg.low) + int(arg.high)) // 2
        assert starts[-1] == total and 0 <= _positions(spec, given).min() and _positions(spec, given).max() <= total - 1


def test_other_atomic_kernels_keep_their_draws(monkeypatch):
    """Whether an atomic kernel searches comes from a stream of its own: the other (non-claim) seeds draw
    exactly what they draw with search kernels switched off."""
    monkeypatch.setattr(claims, "chooses_claims", lambda seed: False)
    assert_others_keep_their_draws(monkeypatch, "atomic", searches, "chooses_search")
