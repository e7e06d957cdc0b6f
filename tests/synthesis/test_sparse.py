"""The sparse-row kernels (synthesis/categories/sparse.py): each kernel's outputs, run by Warp on the CPU,
are what the CSR algorithm gives in numpy over the same row pointers, columns and values (products,
Jacobi sweeps and residuals, row statistics, Laplacian smoothing, PageRank, edge softmax, the
transposed product); the row pointers are a valid CSR of the drawn lengths at every size; and the
control_flow kernels that are not sparse keep their draws."""
from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from cuda_production.bench import bench_args, bench_shape
from cuda_production.reference import input_bits, input_seed, make_input
from synthesis.categories import generate, sparse
from synthesis.categories.sparse import COLUMN_NAMES, POINTER_NAMES, VALUE_NAMES
from synthesis.spec import ArgSpec, KernelSpec
from tests.cuda_production.harness import sanitized_bench, warp_runs, write_spec_sample
from tests.synthesis.shares import assert_others_keep_their_draws


def _sparse_seeds(count: int) -> list[int]:
    """Seeds of control_flow kernels over CSR rows (not fixed-width ones)."""
    return [s for s in range(3000) if sparse.chooses_sparse(s) and not sparse.chooses_fixed_width(s)][:count]


@functools.lru_cache(maxsize=None)
def _runs() -> tuple[tuple[KernelSpec, dict, dict], ...]:
    return warp_runs([generate("control_flow", s) for s in _sparse_seeds(220)], "test_sparse")


class Csr:
    """A kernel's CSR structure and arguments, found by the names people give them."""

    def __init__(self, spec: KernelSpec, arrays: dict) -> None:
        self.spec, self.arrays = spec, arrays
        self.scalars = {a.name: np.float64(np.float32(a.value)) for a in spec.args if a.role == "scalar"}
        self.ptr = arrays[next(n for n in POINTER_NAMES if n in arrays)].astype(np.int64)
        cols = next((n for n in COLUMN_NAMES if n in arrays), None)
        self.cols = arrays[cols].astype(np.int64) if cols else None
        self.rows = spec.dim[0]

    def has(self, feature: str) -> bool:
        return feature in self.spec.description

    def array(self, *names: str) -> np.ndarray:
        return self.arrays[next(n for n in names if n in self.arrays)].astype(np.float64)

    def scalar(self, *names: str) -> np.float64:
        return next(self.scalars[n] for n in names if n in self.scalars)

    def row(self, i: int) -> slice:
        return slice(self.ptr[i], self.ptr[i + 1])

    def active(self) -> np.ndarray:
        """The rows a padded launch computes (all, without one)."""
        active = np.ones(self.rows, dtype=bool)
        if self.has("padded launch"):
            active[int(self.scalar("num_rows", "n_rows", "n")):] = False
        return active

    def values(self) -> np.ndarray:
        return self.array(*VALUE_NAMES, "off_diag", "offdiag_vals", "scores", "logits", "edge_scores")

    def row_dot(self, values: np.ndarray, x: np.ndarray) -> np.ndarray:
        """Per row: sum_k values[k] * x[cols[k]] (x float or vec3 rows)."""
        out = np.zeros((self.rows,) + x.shape[1:])
        for i in range(self.rows):
            k = self.row(i)
            terms = values[k].reshape((-1,) + (1,) * (x.ndim - 1)) * x[self.cols[k]]
            out[i] = terms.sum(axis=0)
        return out


def expected_outputs(c: Csr) -> dict[str, np.ndarray]:
    """The written arrays the form's algorithm gives (float64), rows the kernel skips left at their
    start (a one-element total sums the rows the kernel computes)."""
    out = _row_outputs(c)
    active = c.active()
    if "total" in out:  # (the entry, in _row_outputs: its array's name and its term per row)
        name, terms = out.pop("total")
        out[name] = np.array([terms[active].sum()])
    return out


def _row_outputs(c: Csr) -> dict[str, np.ndarray]:
    a = c.arrays
    if c.has("sparse times dense matrix"):
        x = c.array("X", "features", "H")
        product = np.stack([c.row_dot(c.array("values", "norm_adj", "edge_weights", "vals"), x[:, col])
                            for col in range(x.shape[1])], axis=1)
        if c.has("bias and ReLU"):
            product = np.maximum(product + c.array("bias", "b"), 0.0)
        return {_written_name(c, ("Y", "out_features", "aggregated")): product}
    if c.has("Laplacian applied"):
        x = c.array("x", "u", "signal")
        sums, counts = c.row_dot(np.ones(len(c.cols)), x), np.diff(c.ptr)
        y = _written_name(c, ("Lx", "lap", "y"))
        if c.has("L = D - A"):
            return {y: counts * x - sums}
        return {y: np.where(counts > 0, x - sums / np.maximum(counts, 1), 0.0)}
    if c.has("sparse matrix-vector product"):
        x = c.array("x", "vec", "field", "velocities")
        product = c.row_dot(c.values(), x)
        if c.has("diagonal apart (D + A)"):
            product = product + c.array("diag", "diagonal") * x
        if c.has("rows scaled"):
            product = product * c.array("inv_diag", "row_scale", "d_inv")
        y = _written_name(c, ("y", "Ax", "product", "z", "q", "forces", "f_total"))
        extra = {"total": (_written_name(c, ("pAp", "xAx", "energy")), x * product)} if c.has("x . Ax") else {}
        if c.has("alpha A x + beta y"):
            return {y: c.scalar("alpha") * product + c.scalar("beta") * a[y].astype(np.float64), **extra}
        if c.has("added to the output"):
            return {y: a[y].astype(np.float64) + product, **extra}
        return {y: product, **extra}
    if c.has("Jacobi") or c.has("residual"):
        x, b, diag = c.array("x", "x_old", "u"), c.array("b", "rhs", "f"), c.array("diag", "diagonal", "a_diag")
        sigma = c.row_dot(c.values(), x)
        if c.has("residual"):
            res = b - diag * x - sigma
            extra = {"total": (_written_name(c, ("res_norm2", "residual_norm_sq", "r2")), res * res)} \
                if c.has("squared residual norm") else {}
            return {_written_name(c, ("residual", "r", "resid")): res, **extra}
        new = (b - sigma) / diag
        if c.has("damped"):
            omega = c.scalar("omega", "relax", "damping")
            new = (1.0 - omega) * x + omega * new
        extra = {"total": (_written_name(c, ("delta", "change", "update_norm")), np.abs(new - x))} \
            if c.has("change summed") else {}
        return {_written_name(c, ("x_new", "x_next", "u_new")): new, **extra}
    if c.has("Laplacian smoothing"):
        src = c.array("points", "positions", "verts", "field", "u", "values")
        lam = c.scalar("lam", "alpha", "strength")
        weights = c.array("weights", "edge_weights", "w_ij") if c.has("edge weights") else np.ones(len(c.cols))
        counts = c.row_dot(weights, np.ones(c.rows))  # the weights' sum (the row's length, unweighted)
        sums = c.row_dot(weights, src)
        shape = (-1,) + (1,) * (src.ndim - 1)
        mean = sums / np.where(counts > 0, counts, 1.0).reshape(shape)
        smoothed = np.where((counts > 0).reshape(shape), src + lam * (mean - src), src)
        return {_written_name(c, ("smoothed", "points_out", "new_points", "u_new", "field_out")): smoothed}
    if c.has("PageRank"):
        rank, d = c.array("rank", "ranks", "pr"), c.scalar("damping", "d", "alpha")
        if any(n in a for n in ("inv_out_degree", "inv_deg")):
            share = rank * c.array("inv_out_degree", "inv_deg")
        else:
            share = rank / c.array("out_degree", "out_deg")
        pulled = c.row_dot(np.ones(len(c.cols)), share)
        if c.has("personalised"):
            new = (1.0 - d) * c.array("teleport", "personalization", "restart") + d * pulled
        elif c.has("dangling"):
            new = (1.0 - d) / c.rows + d * (pulled + c.array("dangling_sum", "dangling", "sink_rank")[0] / c.rows)
        else:
            new = (1.0 - d) / c.rows + d * pulled
        extra = {"total": (_written_name(c, ("delta", "diff", "l1_change")), np.abs(new - rank))} \
            if c.has("change summed") else {}
        return {_written_name(c, ("rank_new", "next_rank", "new_rank")): new, **extra}
    if c.has("softmax over each row's edges"):
        if c.has("GAT scores"):
            rows_of = np.repeat(np.arange(c.rows), np.diff(c.ptr))
            e = c.array("a_src", "alpha_src", "el")[rows_of] + c.array("a_dst", "alpha_dst", "er")[c.cols]
            scores = np.where(e > 0.0, e, 0.2 * e)
        else:
            scores = c.values()
        weights = np.zeros_like(scores)
        lse = np.zeros(c.rows)
        for i in range(c.rows):
            k = c.row(i)
            if k.stop > k.start:
                e = np.exp(scores[k] - scores[k].max())
                weights[k] = e / e.sum()
                lse[i] = scores[k].max() + np.log(e.sum())
        extra = {_written_name(c, ("lse", "log_norm", "logsumexp")): lse} if c.has("log-sum-exp") else {}
        if c.has("aggregation"):
            return {_written_name(c, ("h_out", "aggregated", "h_new")): c.row_dot(weights, c.array("h", "features", "feat")),
                    **extra}
        return {_written_name(c, ("attn", "weights", "alpha")): weights, **extra}
    if c.has("transposed sparse product"):
        x, values = c.array("x", "vec", "u", "v", "forces_in"), c.values()
        if c.has("scaled by alpha"):
            x = c.scalar("alpha", "scale") * x
        y = np.zeros((c.rows,) + x.shape[1:])
        for i in np.nonzero(c.active())[0]:
            k = c.row(i)
            np.add.at(y, c.cols[k], np.multiply.outer(values[k], x[i]))
        return {_written_name(c, ("y", "ATx", "z", "forces", "accum")): y}
    return row_statistics(c)


def row_statistics(c: Csr) -> dict[str, np.ndarray]:
    values = c.values()
    rows = [values[c.row(i)] for i in range(c.rows)]
    counts = np.diff(c.ptr)
    out = {}
    if c.has("row sums"):
        out[_written_name(c, ("row_sums", "row_sum", "sums"))] = np.array([r.sum() for r in rows])
    if c.has("row norms"):
        out[_written_name(c, ("row_norms", "norms"))] = np.sqrt([(r * r).sum() for r in rows])
    if c.has("largest magnitude per row"):
        out[_written_name(c, ("row_max", "max_abs", "peaks"))] = np.array([np.abs(r).max(initial=0.0) for r in rows])
    if c.has("mean of each non-empty row"):
        out[_written_name(c, ("row_means", "means", "avg"))] = np.array([r.mean() if len(r) else 0.0 for r in rows])
    if c.has("rows scaled to unit norm"):
        scaled = np.zeros_like(values)
        for i, r in enumerate(rows):
            norm = np.sqrt((r * r).sum())
            if norm > 0:
                scaled[c.row(i)] = r / norm
        out[_written_name(c, ("normalized", "scaled_vals", "values_out"))] = scaled
    if c.has("row lengths"):
        out[_written_name(c, ("degree", "row_len", "nnz_per_row"))] = counts.astype(np.float64)
    if c.has("entries counted by atomics"):
        out["total"] = (_written_name(c, ("nnz_total", "entries", "total_nnz")), counts.astype(np.float64))
    assert out, c.spec.description
    return out


def _written_name(c: Csr, names: tuple[str, ...]) -> str:
    return next(n for n in names if any(a.name == n and a.is_written for a in c.spec.args))


@pytest.mark.parametrize("feature", ["sparse matrix-vector product", "alpha A x + beta y", "added to the output",
                                     "vec3 field", "damped Jacobi sweep", "Jacobi sweep", "residual", "row sums",
                                     "row norms", "largest magnitude per row", "mean of each non-empty row",
                                     "rows scaled to unit norm", "row lengths", "Laplacian smoothing", "mesh vertices",
                                     "PageRank", "softmax over each row's edges", "aggregation",
                                     "transposed sparse product", "padded launch", "CSR rows of 0-",
                                     "empty rows return early", "rows scaled", "x . Ax", "squared residual norm",
                                     "change summed by atomics", "edge weights", "personalised", "log-sum-exp",
                                     "scaled by alpha", "entries counted by atomics", "sparse times dense matrix",
                                     "bias and ReLU", "GAT scores", "online softmax", "dangling", "vec3 rows",
                                     "L = D - A", "I - D^-1 A", "diagonal apart (D + A)", "float16 values"])
def test_every_variant_is_drawn(feature):
    assert any(feature in spec.description for spec, _, _ in _runs())


def test_warp_computes_the_csr_algorithm_of_every_sparse_kernel():
    for spec, arrays, written in _runs():
        c = Csr(spec, arrays)
        expected = expected_outputs(c)
        assert set(expected) == set(written), (set(expected), set(written), spec.source)
        active = c.active()
        for name, want in expected.items():
            got = written[name].astype(np.float64)
            start = arrays[name].astype(np.float64) if name in arrays else np.zeros_like(got)
            if got.shape[0] == c.rows and not c.has("transposed") and got.shape[0] > 1:  # per-row outputs: skipped rows stay 0 / as they were
                want = np.where(active.reshape((-1,) + (1,) * (got.ndim - 1)), want.reshape(got.shape), start)
            elif got.shape[0] == c.ptr[-1] and got.shape[0] != c.rows:  # per entry: those of skipped rows too
                want = np.where(np.repeat(active, np.diff(c.ptr)), want.reshape(got.shape), start)
            np.testing.assert_allclose(got, want.reshape(got.shape), rtol=1e-5, atol=1e-5, err_msg=f"{name}\n{spec.source}")


def test_row_pointers_are_a_csr_of_the_drawn_lengths_at_every_size():
    """0 first, lengths within [low, high], and exactly rows x mean entries (the size of the arrays
    they index), at the check size and at bench sizes, an odd number of rows (`--bench-dim 2049`)
    included: its last row, which has no partner, holds the mean."""
    for rows, (low, high) in [(64, (0, 8)), (1000, (16, 48)), (100, (3, 5)), (63, (8, 24))]:
        arg = ArgSpec("row_ptr", "int32", "offsets", (rows + 1,), low, high, 0)
        entries = ArgSpec("vals", "float32", "input", (rows * (low + high) // 2,))
        for sized in (arg, *(bench_args([arg, entries], (rows,), (n,))[0] for n in (rows * 64, 2 * rows + 1))):
            ptr = make_input(sized, 3, 12345).astype(np.int64)
            lengths = np.diff(ptr)
            assert ptr[0] == 0 and lengths.min() >= low and lengths.max() <= high
            assert ptr[-1] == (len(ptr) - 1) * (low + high) // 2
            assert len(set(lengths.tolist())) > 1  # the rows differ
        assert bench_shape(arg, (rows,), (rows * 64,)) == (rows * 64 + 1,)
        assert bench_shape(entries, (rows,), (rows * 64,)) == (rows * 64 * (low + high) // 2,)


def test_a_sample_benchmarks_an_odd_number_of_rows_within_its_arrays(tmp_path):
    """The .cu's own row pointers at an odd bench size (`--bench-dim 2n + 1`) end at the entries its
    arrays hold (AddressSanitizer on the host): before, the last row, paired with none, could run past."""
    spec = _runs()[0][0]
    [(position, ptr)] = [(sum(len(b.flattened()) for b in spec.args[:i]), a) for i, a in enumerate(spec.args)
                         if a.role == "offsets"]
    mean, spread = (int(ptr.low) + int(ptr.high)) // 2, (int(ptr.high) - int(ptr.low)) // 2
    seed = input_seed(spec)

    def pair_offset(rows: int) -> int:  # what the unpaired last row would draw as the first of a pair
        return int(input_bits(seed, position, rows // 2 + 1)[rows // 2] % np.uint32(2 * spread + 1)) - spread
    rows = next(n for n in range(2 * spec.dim[0] + 1, 4 * spec.dim[0], 2) if pair_offset(n) > 0)
    run = sanitized_bench(write_spec_sample(tmp_path, spec, None), rows)
    assert run.compiled and run.returncode == 0, run.output
    assert f'"launch_dim": [{rows}' in run.output


def test_columns_index_the_rows_arrays():
    for spec, arrays, _ in _runs():
        c = Csr(spec, arrays)
        if c.cols is not None:
            assert c.cols.min() >= 0 and c.cols.max() < c.rows
            assert len(c.cols) == c.ptr[-1]  # as long as the structure needs


def test_other_control_flow_kernels_keep_their_draws(monkeypatch):
    assert_others_keep_their_draws(monkeypatch, "control_flow", sparse, "chooses_sparse")


def test_a_jacobi_sweep_divides_by_the_diagonal_not_by_an_array_named_its_inverse():
    """`(b - sigma) / diag[tid]`: an array named `inv_...` is multiplied by, never divided by."""
    import re

    from synthesis.categories import generate

    sources = [generate("control_flow", seed).source for seed in range(900)]
    assert sum("Jacobi" in s or "sigma" in s for s in sources) >= 10
    assert [s for s in sources if re.search(r"/ (inv_\w+|\w+_inv)\[", s)] == []


# ---- fixed-width rows (ELLPACK, k-nearest-neighbour lists) ------------------------------------------
@functools.lru_cache(maxsize=None)
def _fixed_runs() -> tuple[tuple[KernelSpec, dict, dict], ...]:
    seeds = [s for s in range(6000) if sparse.chooses_sparse(s) and sparse.chooses_fixed_width(s)][:160]
    return warp_runs([generate("control_flow", s) for s in seeds], "test_fixed_rows")


class Fixed:
    """A fixed-width kernel's arguments, found by the names people give them; numpy's float64 over them."""

    def __init__(self, spec: KernelSpec, arrays: dict) -> None:
        self.spec, self.arrays = spec, arrays
        [self.idx] = [arrays[a.name].astype(np.int64) for a in spec.args if a.role == "index" and len(a.shape) == 2]
        self.scalars = {a.name: np.float64(np.float32(a.value)) for a in spec.args if a.role == "scalar"}
        self.rows = spec.dim[0]

    def has(self, feature: str) -> bool:
        return feature in self.spec.description

    def array(self, *names: str) -> np.ndarray:
        return self.arrays[next(n for n in names if n in self.arrays)].astype(np.float64)

    def scalar(self, *names: str, default=None) -> np.float64:
        return next((self.scalars[n] for n in names if n in self.scalars), default)

    def gather(self, values: np.ndarray) -> np.ndarray:
        """values[idx]: (rows, width) or (rows, width, 3)."""
        return values[self.idx]

    def active(self) -> np.ndarray:
        active = np.ones(self.rows, dtype=bool)
        if self.has("padded launch"):
            active[int(self.scalar("num_rows", "n_rows", "n_points")):] = False
        return active


def expected_fixed(c: Fixed) -> dict[str, np.ndarray]:
    """The outputs of the kernel's algorithm in numpy (an argmax output: the value it points at)."""
    out: dict[str, np.ndarray] = {}
    if c.has("ELLPACK"):
        vals = c.array("ell_vals", "values", "vals")
        x = c.array("x", "vec", "field", "velocities")
        acc = np.einsum("rk,rk...->r...", vals, c.gather(x))
        if c.has("Jacobi sweep"):  # x_new = (b - (A - D) x) / D, damped: a share omega of it
            step = (c.array("b", "rhs") - acc) / c.array("diag", "diagonal", "a_diag")
            if c.has("damped"):
                omega = c.scalar("omega", "damping")
                step = (1.0 - omega) * x + omega * step
            out[_written_fixed(c, ("x_new", "x_next", "x_out"))] = step
            return out
        if c.has("diagonal apart"):
            acc = acc + c.array("diag", "diagonal") * x
        if c.has("alpha A x + beta y"):
            y = _written_fixed(c, ("y", "Ax", "out"))
            out[y] = c.scalar("alpha", "scale") * acc + c.scalar("beta") * c.arrays[y].astype(np.float64)
        elif c.has("residual"):
            res = c.array("b", "rhs") - acc
            out[_written_fixed(c, ("r", "residual", "res_out"))] = res
            if c.has("squared residual summed"):
                sq = (res * res).reshape(c.rows, -1).sum(axis=1)
                out[_written_fixed(c, ("r_norm_sq", "res_sq"))] = np.array([sq[c.active()].sum()])
        else:
            out[_written_fixed(c, ("y", "Ax", "out"))] = acc
    kind = re.search(r"(argmax|mean and max|weighted mean|max|mean) over the k nearest", c.spec.description)
    if kind:
        kind = kind.group(1)
        feat = c.array("feat", "features", "h", "normals", "vel", "colors")
        near = c.gather(feat)
        if kind in ("max", "argmax", "mean and max"):
            out[_written_fixed(c, ("pooled_max", "h_max", "nbr_max"))] = np.maximum(feat, near.max(axis=1))
        if kind == "mean" or kind == "mean and max":
            out[_written_fixed(c, ("pooled", "nbr_mean", "smoothed"))] = near.mean(axis=1)
        if kind == "weighted mean":
            wts = c.array("edge_w", "weights", "affinity")
            wts = wts.reshape(wts.shape + (1,) * (near.ndim - 2))
            out[_written_fixed(c, ("pooled", "nbr_mean", "smoothed"))] = (wts * near).sum(axis=1) / wts.sum(axis=1)
    if c.has("edge convolution"):
        xi = c.array("feat", "x", "h")
        own = c.scalar("phi", "w_self") * xi + c.scalar("bias", "b", default=0.0)
        edges = c.scalar("theta", "w_edge") * (c.gather(xi) - xi[:, None]) + own[:, None]
        relu = np.maximum(edges, 0.0)
        out[_written_fixed(c, ("h_out", "edge_feat", "h_new"))] = \
            relu.mean(axis=1) if c.has("mean over the neighbours") else relu.max(axis=1)
    if c.has("fixed-valence") or c.has("umbrella"):
        p = c.array("points", "verts", "positions")
        centroid = c.gather(p).mean(axis=1)
        if c.has("umbrella"):
            out[_written_fixed(c, ("delta", "umbrella", "laplacian"))] = centroid - p
        else:
            moved = p + c.scalar("lam", "smoothing", "relax") * (centroid - p)
            if c.has("pinned vertices kept"):
                moved = np.where(c.array("pinned", "fixed", "is_boundary")[:, None] != 0, p, moved)
            out[_written_fixed(c, ("smoothed", "points_out", "new_points"))] = moved
    if c.has("scattered-data interpolation"):
        q = c.array("query", "query_pos", "targets")
        d = q[:, None, :] - c.gather(c.array("sample_pos", "src_pos", "sites"))
        d2 = (d * d).sum(axis=2)
        if c.has("inverse square"):
            wts = 1.0 / (d2 + c.scalar("eps", "epsilon", "soften"))
        elif c.has("inverse distance"):
            wts = 1.0 / (np.sqrt(d2) + c.scalar("eps", "epsilon", "soften"))
        else:
            h = c.scalar("h", "bandwidth", "sigma")
            wts = np.exp(-d2 / (2.0 * h * h))
        near = c.gather(c.array("sample_val", "src_val", "site_values", "sample_vel", "src_vel"))
        wts_b = wts.reshape(wts.shape + (1,) * (near.ndim - 2))
        total = wts.sum(axis=1)
        if c.has("gaussian"):
            total = np.maximum(total, 1.0e-6)
        out[_written_fixed(c, ("interp", "values_out", "estimate"))] = (wts_b * near).sum(axis=1) / \
            total.reshape(total.shape + (1,) * (near.ndim - 2))
    assert out, c.spec.description
    return out


def _written_fixed(c: Fixed, names: tuple[str, ...]) -> str:
    return next(n for n in names if any(a.name == n and a.is_written for a in c.spec.args))


@pytest.mark.parametrize("feature", ["ELLPACK sparse matrix-vector product", "alpha A x + beta y", "ELLPACK residual",
                                     "squared residual summed", "diagonal apart", "float16 values",
                                     "ELLPACK Jacobi sweep", "ELLPACK damped Jacobi sweep",
                                     " max over the k nearest", "argmax over", "(vec3)", "weighted mean over",
                                     "mean and max over", "edge convolution", "mean over the neighbours of a ReLU",
                                     "winning neighbour kept", "; bias",
                                     "Laplacian smoothing of fixed-valence", "pinned vertices kept", "umbrella",
                                     "inverse square weights", "inverse distance weights", "gaussian weights",
                                     "padded launch"])
def test_every_fixed_width_variant_is_drawn(feature):
    assert any(feature in spec.description for spec, _, _ in _fixed_runs())


def test_warp_computes_the_algorithm_of_every_fixed_width_kernel():
    """Each output as numpy computes it over the same neighbour lists; a padded launch's skipped rows
    keep their start; an argmax points at the winner (its value is the maximum) or is -1 where the
    start won (the point's own feature, a ReLU's 0)."""
    for spec, arrays, written in _fixed_runs():
        c = Fixed(spec, arrays)
        expected = expected_fixed(c)
        argmax = {n for n in written if n not in expected}
        assert len(argmax) == (c.has("argmax over") or c.has("winning neighbour kept")), (written.keys(), spec.source)
        active = c.active()
        for name, want in expected.items():
            got = written[name].astype(np.float64)
            start = arrays[name].astype(np.float64) if name in arrays else np.zeros_like(got)
            if got.shape[0] == c.rows:
                want = np.where(active.reshape((-1,) + (1,) * (got.ndim - 1)), want.reshape(got.shape), start)
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5, err_msg=f"{name}\n{spec.source}")
        for name in argmax:
            best = written[name].astype(np.int64)
            peak = written[next(n for n in expected if written[n].dtype.kind == "f")].astype(np.float64)
            for i in np.flatnonzero(active):
                if c.has("argmax over"):  # a slot of the row
                    feat = c.array("feat", "features", "h")
                    won = feat[i] if best[i] < 0 else feat[c.idx[i, best[i]]]
                else:  # a neighbour's index: the edge's feature from it
                    xi = c.array("feat", "x", "h")
                    own = c.scalar("phi", "w_self") * xi[i] + c.scalar("bias", "b", default=0.0)
                    won = 0.0 if best[i] < 0 else c.scalar("theta", "w_edge") * (xi[best[i]] - xi[i]) + own
                    assert best[i] < 0 or best[i] in c.idx[i]
                np.testing.assert_allclose(won, peak[i], rtol=1e-5, atol=1e-6, err_msg=spec.source)


def test_csr_kernels_keep_their_draws_beside_fixed_width_rows(monkeypatch):
    assert_others_keep_their_draws(monkeypatch, "control_flow", sparse, "chooses_fixed_width")
