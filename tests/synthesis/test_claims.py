"""The claim kernels (synthesis/categories/claims.py): each kernel's written arrays, run by Warp on the
CPU, are what the pattern's order-free definition gives in numpy (the set of distinct keys or
occupied cells, the vertices one breadth-first level discovers, counters taken and zeroed, elements
recomputed where their flag was set), so they hold whichever thread wins a claim; and the atomic
kernels that claim nothing keep their draws."""
from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from synthesis.categories import claims, generate
from synthesis.spec import KernelSpec
from cuda_production.bench import bench_launch_dim
from tests.cuda_production.harness import sanitized_bench, warp_runs, write_spec_sample
from tests.synthesis.shares import assert_earlier_forms_kept, assert_others_keep_their_draws


def _claim_seeds(count: int) -> list[int]:
    return [s for s in range(2000) if claims.chooses_claims(s)][:count]


@functools.lru_cache(maxsize=None)
def _runs() -> tuple[tuple[KernelSpec, dict, dict], ...]:
    return warp_runs([generate("atomic", s) for s in _claim_seeds(200)], "test_claims")


def _args(spec: KernelSpec, role: str, dtype: str | None = None) -> list[str]:
    """The names of the arguments of `role` (of `dtype`), in order."""
    return [a.name for a in spec.args if a.role == role and (dtype is None or a.dtype == dtype)]


def _arg(spec: KernelSpec, hints: tuple[str, ...]) -> str | None:
    """The argument named by one of the generator's hints (names are unique per kernel)."""
    return next((a.name for a in spec.args if a.name in hints), None)


def _scalar(spec: KernelSpec, hints: tuple[str, ...]):
    return next(a.value for a in spec.args if a.role == "scalar" and a.name in hints)


def _active(spec: KernelSpec, given: dict) -> np.ndarray:
    """The threads past the padded launch's and the mask's early returns."""
    active = np.ones(spec.dim[0], dtype=bool)
    if "padded launch" in spec.description:
        active[int(_scalar(spec, ("num_items", "n_items", "size"))):] = False
    mask = _arg(spec, ("active", "valid", "alive"))
    if mask and "inactive elements skipped" in spec.description:
        active &= given[mask] != 0
    return active


def _distinct_keys(spec: KernelSpec, given: dict) -> dict:
    active = _active(spec, given)
    table = _arg(spec, ("seen", "visited", "taken", "occupied", "cell_flags", "occupancy"))
    size = len(given[table])
    if "occupied cells of a plane" in spec.description:
        [p] = _args(spec, "input", "vec2")
        per_unit = re.search(r"int\(\w+\[0\](?: \* ([\d.]+))?\)", spec.source).group(1)
        width = 1.0 / float(per_unit or 1.0)
        nx = int(re.search(r"= \w+ \* (\d+) \+ \w+", spec.source).group(1))
        cells = np.floor(given[p] / width).astype(np.int64)
        keys = cells[:, 1] * nx + cells[:, 0]
    elif "occupied cells" in spec.description:  # the cell of each point: from the origin, over the cell width
        x = _arg(spec, ("x", "positions", "coords"))
        origin = _scalar(spec, ("origin", "x_min", "lower")) if "origin" in spec.description else 0.0
        per_unit = re.search(r"\* ([\d.]+)\)", spec.source.split("cell = ")[1].split("\n")[0])
        keys = np.minimum(np.floor((given[x] - origin) * float(per_unit.group(1) if per_unit else 1.0)).astype(np.int64),
                          size - 1)
    else:
        [ids] = _args(spec, "index")
        keys = given[ids].astype(np.int64) % size
    keys = keys[active]
    before = given[table]
    after = before.copy()
    after[keys] = 1
    free = np.unique(keys[before[keys] == 0])  # each free slot counted once, by its claimant
    expected = {table: after, _arg(spec, ("distinct", "num_unique", "n_new", "num_occupied", "occupied_cells",
                                           "n_cells")): np.array([len(free)])}
    every = _arg(spec, ("num_keys", "total_keys", "n_seen"))
    if every:
        expected[every] = np.array([len(keys)])
    hits = _arg(spec, ("multiplicity", "hits", "per_slot"))
    if hits:  # each slot's multiplicity beside the claims (session 47)
        expected[hits] = np.bincount(keys, minlength=size)
        assert expected[hits].max() > 1  # some slots taken more than once
    return expected


def _bfs_step(spec: KernelSpec, given: dict) -> dict:
    [ptr] = _args(spec, "offsets")
    [cols] = _args(spec, "index")
    level = _scalar(spec, ("level", "depth_level", "iteration"))
    depth = _arg(spec, ("depth", "dist", "levels"))
    before = given[depth]
    frontier = given[_arg(spec, ("frontier", "in_frontier", "active"))] != 0 if "frontier as flags" in spec.description \
        else before == level
    frontier &= _active(spec, given)
    visited = _arg(spec, ("visited", "seen", "discovered_flag"))
    unvisited = before == -1 if not visited else given[visited] == 0
    reached, edges = set(), 0
    for u in np.flatnonzero(frontier):
        row = given[cols][given[ptr][u]:given[ptr][u + 1]]
        edges += len(row)
        reached.update(int(v) for v in row if unvisited[v])
    reached = sorted(reached)
    after = before.copy()
    after[reached] = level + 1
    expected = {depth: after}
    if visited:
        flags = given[visited].copy()
        flags[reached] = 1
        expected[visited] = flags
    marks = _arg(spec, ("next_frontier", "next_active", "new_frontier"))
    if marks:
        expected[marks] = np.zeros_like(before)
        expected[marks][reached] = 1
    count = _arg(spec, ("discovered", "num_new", "frontier_size"))
    if count:
        expected[count] = np.array([len(reached)])
    if "frontier edges counted" in spec.description:
        expected[_arg(spec, ("edges_checked", "frontier_edges", "m_f"))] = np.array([edges])
    next_edges = _arg(spec, ("next_edges", "m_next", "next_frontier_edges"))
    if next_edges:  # the degrees of the vertices reached (session 47)
        expected[next_edges] = np.array([sum(int(given[ptr][v + 1] - given[ptr][v]) for v in reached)])
    return expected


def _read_and_reset(spec: KernelSpec, given: dict) -> dict:
    active = _active(spec, given)
    counts = _arg(spec, ("counts", "arrivals", "hits"))
    n = np.where(active, given[counts], 0)
    expected = {counts: np.where(active, 0, given[counts])}
    took = {}
    for hints in (("sums", "accum", "deposited"), ("sq_sums", "sum_sq", "moments2")):
        name = _arg(spec, hints)
        if name:
            took[hints[0]] = np.where(active, given[name], 0.0)
            expected[name] = np.where(active, 0.0, given[name])
    some = n > 0
    mean = took["sums"] / np.maximum(n, 1) if "sums" in took else None
    if "running mean moved" in spec.description:
        ema = _arg(spec, ("running_mean", "ema", "smoothed"))
        alpha = _scalar(spec, ("alpha", "momentum", "blend"))
        expected[ema] = np.where(some, given[ema] + alpha * (mean - given[ema]), given[ema])
    elif mean is not None:
        expected[_arg(spec, ("mean", "avg", "average"))] = np.where(some, mean, 0.0)
        if "sq_sums" in took:
            variance = np.maximum(took["sq_sums"] / np.maximum(n, 1) - mean * mean, 0.0)
            expected[_arg(spec, ("var", "variance"))] = np.where(some, variance, 0.0)
    total = _arg(spec, ("total", "running_count", "lifetime_hits"))
    if total:
        expected[total] = given[total] + n
    rate = _arg(spec, ("rate", "arrival_rate", "hits_per_s"))
    if rate:
        expected[rate] = np.where(active, n * _scalar(spec, ("inv_dt", "inv_interval", "rate_scale")), 0.0)
    nonempty = _arg(spec, ("num_nonempty", "active_bins", "n_busy"))
    if nonempty:
        expected[nonempty] = np.array([int(some.sum())])
    busiest = _arg(spec, ("max_count", "peak_load", "busiest"))
    if busiest:
        expected[busiest] = np.array([max(int(n.max()), 0)])
    return expected


def _dirty_flags(spec: KernelSpec, given: dict) -> dict:
    active = _active(spec, given)
    dirty = _arg(spec, ("dirty", "stale", "needs_update"))
    cache = _arg(spec, ("directions", "unit_dirs", "cached_dir", "cached_norm", "lengths", "norms", "cached",
                        "derived", "cached_value"))
    src = _arg(spec, ("positions", "points", "x", "values", "data"))
    x = given[src].astype(np.float64)
    if "wp.normalize(" in spec.source:
        value = x / np.linalg.norm(x, axis=1, keepdims=True)
    elif "wp.length(" in spec.source:
        value = np.linalg.norm(x, axis=1)
    elif "wp.dot(" in spec.source:
        value = (x * x).sum(axis=1)
    elif "wp.tanh(" in spec.source:
        value = np.tanh(x)
    elif "wp.clamp(" in spec.source:
        value = np.clip(x, -1.0, 1.0)
    elif "wp.sqrt(" in spec.source:
        value = np.sqrt(np.abs(x))
    else:
        value = _scalar(spec, ("scale", "gain")) * x
    hit = active & (given[dirty] != 0)
    mask = hit[:, None] if value.ndim == 2 else hit
    old = given[cache].astype(np.float64)
    expected = {dirty: np.where(active, 0, given[dirty]), cache: np.where(mask, value, old)}
    delta = _arg(spec, ("delta", "change", "moved"))
    if delta:
        expected[delta] = np.where(mask, value - old, 0.0)
    updates = _arg(spec, ("num_updated", "recomputed", "n_dirty"))
    if updates:
        expected[updates] = np.array([int(hit.sum())])
    return expected


FORM_OF = {"counted by their claimant": _distinct_keys, "breadth-first search step": _bfs_step,
           "taken and reset": _read_and_reset, "dirty flag": _dirty_flags}


@pytest.mark.parametrize("part", range(4))
def test_every_written_array_is_the_claims_order_free_result(part):
    runs = _runs()
    forms = set()
    for spec, given, written in runs[part::4]:
        [(form, expected_of)] = [(f, fn) for f, fn in FORM_OF.items() if f in spec.description]
        forms.add(form)
        expected = expected_of(spec, given)
        assert set(expected) == set(written), spec.source
        for name, values in expected.items():
            np.testing.assert_allclose(written[name], values, rtol=1e-6, atol=1e-6, err_msg=f"{name}\n{spec.source}")
    assert forms == set(FORM_OF)


def test_a_claim_is_made_by_compare_and_swap_or_exchange_and_its_result_read():
    """Which thread claims a slot is never stored (no parent, no slot order): only whether it did."""
    for spec, _, _ in _runs():
        calls = re.findall(r"wp\.atomic_(cas|exch)\(", spec.source)
        assert calls, spec.source
        assert not re.search(r"\[\s*wp\.atomic_(cas|exch)\(", spec.source)
        assert "parent" not in spec.source


def test_other_atomic_kernels_keep_their_draws(monkeypatch):
    """Whether an atomic kernel claims slots comes from a stream of its own: the other seeds draw
    exactly what they draw with claim kernels switched off."""
    assert_others_keep_their_draws(monkeypatch, "atomic", claims, "chooses_claims")


def test_the_claim_kernels_the_breadth_stream_leaves_alone_keep_their_draws(monkeypatch):
    """Every claim kernel without one of session 47's forms draws exactly what it draws when the stream
    keeps the earlier forms; and each of those forms is among the kernels the order-free test runs."""
    new = ("each slot's multiplicity beside the claims", "the next frontier's edges counted by the claimants")
    assert all(any(f in spec.description for spec, _, _ in _runs()) for f in new)
    assert_earlier_forms_kept(monkeypatch, "atomic", _claim_seeds(150), claims, "breadth", new, 150 // 2)


@pytest.mark.parametrize("form", ["occupied cells of a plane", "occupied cells counted by their claimant"])
def test_a_grid_of_cells_keeps_its_cells_at_a_bench_size_below_the_check_launch(tmp_path, form):
    """The cells of a plane or a line are a count written into the kernel (`cy * 32 + cx`), not the
    launch's: the flags (and each cell's multiplicity) keep their size when --bench-dim shrinks the
    launch, so the sample's benchmark stays within its arrays (AddressSanitizer on the host). Before,
    they shrank with it and the claims indexed past them."""
    spec = next(s for s, _, _ in _runs() if form in s.description
                and "each slot's multiplicity beside the claims" in s.description)
    assert bench_launch_dim(list(spec.args), spec.dim)[0] > spec.dim[0]  # the points grow; the cells do not
    folder = write_spec_sample(tmp_path, spec, None)
    run = sanitized_bench(folder, spec.dim[0] // 4)
    assert run.compiled, run.output
    assert run.returncode == 0, run.output
    assert f'"launch_dim": [{spec.dim[0] // 4}]' in run.output
