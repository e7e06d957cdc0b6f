"""Sparse rows: the loops over a compressed sparse row (CSR) structure that solvers, graph code and
graph networks are made of, a thread per row walking `for k in range(row_ptr[i], row_ptr[i + 1])`,
one table entry per form (SPARSE_FORMS): a sparse matrix times a vector (`y = A x`, `y = alpha A x +
beta y`, a vec3 field), a Jacobi sweep or a residual with the diagonal kept apart (damped or not),
row statistics (sums, norms, largest magnitudes, means of non-empty rows, row lengths) and rows
scaled by them, Laplacian smoothing over a graph's adjacency (a mesh's vertices, a scalar field), a
PageRank step pulling rank over in-links, a softmax over each row's edge scores (a graph attention
layer's, and the features it aggregates), and the transposed product scattered by `wp.atomic_add`.

The row pointers are an "offsets" argument (synthesis/spec.py): rows of `lo`-`hi` entries, an even
number of rows holding exactly rows x mean entries, so the column and value arrays are as long as
the structure needs, at bench size too. Some draws have empty rows (a row length of 0), which a mean
or an average must not divide by.

The control_flow category draws these kernels (SPARSE_SHARE of it) from a stream of its own, so every
other control_flow kernel keeps its draws."""
from __future__ import annotations

import random
from typing import Callable

from synthesis.categories.common import padded_launch, pick_dim, takes_variant
from synthesis.exprgen import KernelWriter, fmt_float
from synthesis.spec import KernelSpec

SPARSE_SHARE = 0.25  # of control_flow kernels
# (shortest, longest) row; their sum even, so the mean row length is whole
ROW_LENGTHS = ((0, 8), (2, 10), (4, 12), (1, 7), (0, 16), (8, 24), (16, 48), (3, 5))
POINTER_NAMES = ("row_ptr", "offsets", "indptr", "row_offsets")
COLUMN_NAMES = ("col_idx", "cols", "indices", "col_indices")
VALUE_NAMES = ("values", "vals", "data", "nnz_values")


class Rows:
    """A kernel over the rows of one CSR structure: its pointer and column arrays, and the loop over
    the thread's row (its bounds read once into locals, or in the `range` itself)."""

    def __init__(self, w: KernelWriter, pointer_names: tuple[str, ...] = POINTER_NAMES,
                 column_names: tuple[str, ...] = COLUMN_NAMES) -> None:
        rng = w.rng
        self.w = w
        self.rows = w.dim[0]
        self.shortest, self.longest = rng.choice(ROW_LENGTHS)
        self.entries = self.rows * (self.shortest + self.longest) // 2
        self.ptr = w.add_array(rng.choice(pointer_names), "int32", "offsets", shape=(self.rows + 1,),
                               low=self.shortest, high=self.longest, grid_bits=0)
        # square: a column indexes the rows' own arrays (x, rank, points), which grow with the launch
        self.cols = w.add_array(rng.choice(column_names), "int32", "index", shape=(self.entries,),
                                index_high=self.rows - 1)
        self.bounds_in_locals = rng.random() < 0.5
        if self.bounds_in_locals:
            self.start, self.end = w.fresh("start"), w.fresh("end")
            w.emit(f"{self.start} = {self.ptr}[tid]")
            w.emit(f"{self.end} = {self.ptr}[tid + 1]")
        else:
            self.start, self.end = f"{self.ptr}[tid]", f"{self.ptr}[tid + 1]"
        self.column_local = rng.random() < 0.5  # `j = cols[k]` first, or indexed in place
        self.value_local = rng.random() < 0.3  # `a = values[k]` first, or read in place
        self.k = "k" if rng.random() < 0.7 else "e"
        self.features: list[str] = [f"CSR rows of {self.shortest}-{self.longest} entries"]

    def skip_empty_row(self) -> None:
        """`if start == end: return`, where a row may be empty and its outputs keep their start (zero)
        when it is: a thread with no entries leaves at once."""
        if self.shortest == 0 and self.bounds_in_locals and self.w.rng.random() < 0.4:
            self.w.emit(f"if {self.start} == {self.end}:")
            self.w.emit("    return")
            self.features.append("empty rows return early")

    def entry(self, values: str) -> str:
        """Entry k's value, inside the loop: read in place, or into a local first."""
        if self.value_local:
            a = self.w.fresh("a")
            self.w.emit(f"{a} = {values}[{self.k}]")
            return a
        return f"{values}[{self.k}]"

    def store(self, out: str, value: str, old: str, local: str, hints: tuple[str, ...], measured: bool) -> None:
        """`out[tid] = value`; where `measured`, through a local whose change from `old` is summed over
        the rows (`total`): how far an iteration is from converged."""
        if not measured:
            self.w.emit(f"{out}[tid] = {value}")
            return
        new = self.w.fresh(local)
        self.w.emit(f"{new} = {value}")
        self.w.emit(f"{out}[tid] = {new}")
        self.total(hints, f"wp.abs({new} - {old})")
        self.features.append("change summed by atomics")

    def total(self, hints: tuple[str, ...], term: str, dtype: str = "float32") -> None:
        """`term` summed over every row into a one-element array (a dot product, a residual norm, a
        change between iterations), by `wp.atomic_add`."""
        total = self.w.add_array(self.w.rng.choice(hints), dtype, "output", shape=(1,))
        self.w.emit(f"wp.atomic_add({total}, 0, {term})")

    def loop(self):
        return self.w.block(f"for {self.k} in range({self.start}, {self.end}):")

    def column(self) -> str:
        """The column of entry k, inside the loop: a local, or the index read in place."""
        if self.column_local:
            j = self.w.fresh("j")
            self.w.emit(f"{j} = {self.cols}[{self.k}]")
            return j
        return f"{self.cols}[{self.k}]"

    def values(self, hints: tuple[str, ...] = VALUE_NAMES, low: float = -1.0, high: float = 1.0,
               dtype: str = "float32") -> str:
        """A float per entry (the matrix's values, edge scores or weights)."""
        return self.w.add_array(self.w.rng.choice(hints), dtype, "input", shape=(self.entries,), low=low, high=high)

    def entry_of(self, values: str, half: bool) -> str:
        """`entry(values)`, widened to float32 where the values are stored in half precision."""
        a = self.entry(values)
        return f"float({a})" if half else a

    def length(self) -> str:
        """The row's length, as a local."""
        n = self.w.fresh("count")
        self.w.emit(f"{n} = {self.end} - {self.start}")
        return n


def _output(w: KernelWriter, hints: tuple[str, ...], dtype: str = "float32", shape: tuple[int, ...] | None = None) -> str:
    return w.add_array(w.rng.choice(hints), dtype, "output", shape=shape)


# ---- the forms ----------------------------------------------------------------------------------------
def spmm(r: Rows) -> None:
    """Y = A X for a dense X of C columns (a graph network's neighbourhood aggregation of C features),
    a column at a time over the row; sometimes a bias per column and a ReLU after it (a GCN layer)."""
    w, rng = r.w, r.w.rng
    columns = rng.choice([2, 4, 8, 16])
    values = r.values(("values", "norm_adj", "edge_weights", "vals"))
    x = w.add_array(rng.choice(["X", "features", "H"]), "float32", "input", shape=(r.rows, columns))
    y = _output(w, ("Y", "out_features", "aggregated"), shape=(r.rows, columns))
    bound = f"{x}.shape[1]" if rng.random() < 0.5 else str(columns)
    biased = rng.random() < 0.35
    bias = w.add_array(rng.choice(["bias", "b"]), "float32", "input", shape=(columns,)) if biased else None
    c = "c" if rng.random() < 0.6 else "f"
    with w.block(f"for {c} in range({bound}):"):
        acc = w.fresh("acc")
        w.emit(f"{acc} = float(0.0)")
        with r.loop():
            a = r.entry(values)
            w.emit(f"{acc} += {a} * {x}[{r.column()}, {c}]")
        if biased:
            w.emit(f"{y}[tid, {c}] = wp.max({acc} + {bias}[{c}], 0.0)")
        else:
            w.emit(f"{y}[tid, {c}] = {acc}")
    r.features.append(f"sparse times dense matrix ({columns} columns)" + ("; bias and ReLU" if biased else ""))


def laplacian(r: Rows) -> None:
    """A graph Laplacian applied without stored values: (L x)_i = deg(i) x_i - sum of the neighbours'
    x (L = D - A), or normalised by the degree (x_i - the neighbours' mean)."""
    w, rng = r.w, r.w.rng
    x = w.add_array(rng.choice(["x", "u", "signal"]), "float32", "input")
    acc = w.fresh("acc")
    w.emit(f"{acc} = float(0.0)")
    with r.loop():
        w.emit(f"{acc} += {x}[{r.column()}]")
    y = _output(w, ("Lx", "lap", "y"))
    if rng.random() < 0.5:
        w.emit(f"{y}[tid] = float({r.end} - {r.start}) * {x}[tid] - {acc}")
        r.features.append("graph Laplacian applied (L = D - A)")
    else:
        n = r.length()
        with w.block(f"if {n} > 0:"):
            w.emit(f"{y}[tid] = {x}[tid] - {acc} / float({n})")
        r.features.append("random-walk Laplacian applied (I - D^-1 A)")


def spmv(r: Rows) -> None:
    """y = A x (float or vec3 x), y = alpha A x + beta y, or A x added to y; or (a quarter) A X, `spmm`."""
    w, rng = r.w, r.w.rng
    if rng.random() < 0.25:
        spmm(r)
        return
    vec = rng.random() < 0.2
    if not vec and rng.random() < 0.2:
        laplacian(r)
        return
    half = rng.random() < 0.2  # values in half precision, as bandwidth-bound solvers store them
    values = r.values(dtype="float16" if half else "float32")
    if half:
        r.features.append("float16 values")
    x = w.add_array(rng.choice(["x", "vec", "field"] if not vec else ["x", "field", "velocities"]),
                    "vec3" if vec else "float32", "input")
    how = rng.random()
    if how >= 0.4:  # an output that starts at zero: an empty row may leave it so
        r.skip_empty_row()
    acc = w.fresh("acc")
    if not vec and how < 0.4 and rng.random() < 0.35:  # the diagonal kept apart: (D + A) x starts at D x
        diag = w.add_array(rng.choice(["diag", "diagonal"]), "float32", "input", low=1.0, high=4.0)
        w.emit(f"{acc} = {diag}[tid] * {x}[tid]")
        r.features.append("diagonal apart (D + A)")
    else:
        w.emit(f"{acc} = wp.vec3(0.0)" if vec else f"{acc} = float(0.0)")
    with r.loop():
        a = r.entry_of(values, half)
        w.emit(f"{acc} += {a} * {x}[{r.column()}]")
    if how >= 0.4 and not vec and rng.random() < 0.3:  # a row scaling: D^-1 A x (a Jacobi-preconditioned product)
        scale = w.add_array(rng.choice(["inv_diag", "row_scale", "d_inv"]), "float32", "input", low=0.25, high=1.0)
        w.emit(f"{acc} = {acc} * {scale}[tid]")
        r.features.append("rows scaled (D^-1 A x)")
    if not vec and rng.random() < 0.3:  # and x^T A x over all rows (a conjugate gradient's p . Ap)
        r.total(("pAp", "xAx", "energy"), f"{x}[tid] * {acc}")
        r.features.append("x . Ax summed by atomics")
    if how < 0.25 and not vec:
        y = w.add_array(rng.choice(["y", "Ax", "z"]), "float32", "inout")
        alpha = w.add_scalar("alpha", "float32", rng.choice([0.5, 1.5, 2.0, -1.0]))
        beta = w.add_scalar("beta", "float32", rng.choice([0.5, 0.25, -0.5, 2.0]))
        w.emit(f"{y}[tid] = {alpha.src} * {acc} + {beta.src} * {y}[tid]")
        r.features.append("sparse matrix-vector product (y = alpha A x + beta y)")
    elif how < 0.4:
        y = w.add_array(rng.choice(["y", "forces", "f_total"] if vec else ["y", "Ax", "q"]), x_type(vec), "inout")
        w.emit(f"{y}[tid] += {acc}")
        r.features.append("sparse matrix-vector product added to the output")
    else:
        y = _output(w, ("y", "Ax", "product") if not vec else ("y", "Ax", "forces"), x_type(vec))
        w.emit(f"{y}[tid] = {acc}")
        r.features.append("sparse matrix-vector product" + (" (vec3 field)" if vec else ""))


def x_type(vec: bool) -> str:
    return "vec3" if vec else "float32"


def jacobi(r: Rows) -> None:
    """One Jacobi sweep `x_new = (b - sum_{j != i} a_ij x_j) / a_ii` (off-diagonal entries in the
    rows, the diagonal apart), damped by omega, or the residual `b - A x`."""
    w, rng = r.w, r.w.rng
    values = r.values(("off_diag", "values", "offdiag_vals"))
    x = w.add_array(rng.choice(["x", "x_old", "u"]), "float32", "input")
    b = w.add_array(rng.choice(["b", "rhs", "f"]), "float32", "input")
    diag = w.add_array(rng.choice(["diag", "diagonal", "a_diag"]), "float32", "input", low=2.0, high=4.0)
    sigma = w.fresh("sigma")
    w.emit(f"{sigma} = float(0.0)")
    with r.loop():
        a = r.entry(values)
        w.emit(f"{sigma} += {a} * {x}[{r.column()}]")
    kind = rng.random()
    measured = rng.random() < 0.4  # and how far the iteration is from converged, summed over the rows
    if kind < 0.3:
        residual = _output(w, ("residual", "r", "resid"))
        if measured:
            res = w.fresh("res")
            w.emit(f"{res} = {b}[tid] - {diag}[tid] * {x}[tid] - {sigma}")
            w.emit(f"{residual}[tid] = {res}")
            r.total(("res_norm2", "residual_norm_sq", "r2"), f"{res} * {res}")
            r.features.append("squared residual norm summed by atomics")
        else:
            w.emit(f"{residual}[tid] = {b}[tid] - {diag}[tid] * {x}[tid] - {sigma}")
        r.features.append("residual b - A x (diagonal apart)")
        return
    x_new = _output(w, ("x_new", "x_next", "u_new"))
    if kind < 0.6:
        omega = w.add_scalar(rng.choice(["omega", "relax", "damping"]), "float32", rng.choice([0.5, 2.0 / 3.0, 0.8]))
        value = f"(1.0 - {omega.src}) * {x}[tid] + {omega.src} * ({b}[tid] - {sigma}) / {diag}[tid]"
        r.features.append("damped Jacobi sweep")
    else:
        value = f"({b}[tid] - {sigma}) / {diag}[tid]"
        r.features.append("Jacobi sweep")
    r.store(x_new, value, f"{x}[tid]", "x_i", ("delta", "change", "update_norm"), measured)


def row_statistics(r: Rows) -> None:
    """Per row: its sum, L2 norm, largest magnitude or mean (empty rows left at 0); its length; or the
    row scaled by its norm (a value per entry)."""
    w, rng = r.w, r.w.rng
    values = r.values()
    kind = rng.choice(["sum", "norm", "max", "mean", "normalised"])
    if kind != "mean":
        r.skip_empty_row()
    acc = w.fresh("acc" if kind != "max" else "peak")
    w.emit(f"{acc} = float(0.0)")
    also_max = kind in ("sum", "norm") and rng.random() < 0.3  # a second statistic in the same loop
    if also_max:
        peak = w.fresh("peak")
        w.emit(f"{peak} = float(0.0)")
    with r.loop():
        a = r.entry(values) if r.value_local or also_max else f"{values}[{r.k}]"
        if kind == "max":
            w.emit(f"{acc} = wp.max({acc}, wp.abs({a}))")
        elif kind in ("norm", "normalised"):
            w.emit(f"{acc} += {a} * {a}")
        else:
            w.emit(f"{acc} += {a}")
        if also_max:
            w.emit(f"{peak} = wp.max({peak}, wp.abs({a}))")
    if also_max:
        w.emit(f"{_output(w, ('row_max', 'max_abs', 'peaks'))}[tid] = {peak}")
        r.features.append("largest magnitude per row")
    if kind == "sum":
        w.emit(f"{_output(w, ('row_sums', 'row_sum', 'sums'))}[tid] = {acc}")
    elif kind == "norm":
        w.emit(f"{_output(w, ('row_norms', 'norms'))}[tid] = wp.sqrt({acc})")
    elif kind == "max":
        w.emit(f"{_output(w, ('row_max', 'max_abs', 'peaks'))}[tid] = {acc}")
    elif kind == "mean":
        n = r.length()
        means = _output(w, ("row_means", "means", "avg"))
        with w.block(f"if {n} > 0:"):
            w.emit(f"{means}[tid] = {acc} / float({n})")
    else:  # each entry over its row's norm (a row-normalised matrix), zero rows left as they are
        norm = w.fresh("norm")
        w.emit(f"{norm} = wp.sqrt({acc})")
        scaled = _output(w, ("normalized", "scaled_vals", "values_out"), shape=(r.entries,))
        with w.block(f"if {norm} > 0.0:"):
            with r.loop():
                w.emit(f"{scaled}[{r.k}] = {values}[{r.k}] / {norm}")
    r.features.append({"sum": "row sums", "norm": "row norms", "max": "largest magnitude per row",
                       "mean": "mean of each non-empty row", "normalised": "rows scaled to unit norm"}[kind])
    if rng.random() < 0.3:  # and each row's length (a node's degree)
        degree = _output(w, ("degree", "row_len", "nnz_per_row"), "int32")
        w.emit(f"{degree}[tid] = {r.end} - {r.start}")
        r.features.append("row lengths")
    elif rng.random() < 0.2:  # or the entries counted over all rows
        r.total(("nnz_total", "entries", "total_nnz"), f"{r.end} - {r.start}", "int32")
        r.features.append("entries counted by atomics")


def laplacian_smoothing(r: Rows) -> None:
    """Umbrella Laplacian smoothing over an adjacency: p + lam * (mean of the neighbours - p), for a
    mesh's vertices (vec3) or a scalar field; a vertex without neighbours kept."""
    w, rng = r.w, r.w.rng
    vec = rng.random() < 0.6
    src = w.add_array(rng.choice(["points", "positions", "verts"] if vec else ["field", "u", "values"]),
                      "vec3" if vec else "float32", "input")
    lam = w.add_scalar(rng.choice(["lam", "alpha", "strength"]), "float32", rng.choice([0.25, 0.5, 0.75]))
    p = w.fresh("p")
    w.emit(f"{p} = {src}[tid]")
    acc = w.fresh("acc")
    w.emit(f"{acc} = wp.vec3(0.0)" if vec else f"{acc} = float(0.0)")
    if rng.random() < 0.35:  # weighted by the edges (cotangent or inverse-distance weights), over their sum
        weights = r.values(("weights", "edge_weights", "w_ij"), low=0.25, high=1.0)
        wsum = w.fresh("wsum")
        w.emit(f"{wsum} = float(0.0)")
        with r.loop():
            a = r.entry(weights)
            w.emit(f"{acc} += {a} * {src}[{r.column()}]")
            w.emit(f"{wsum} += {a}")
        n = wsum
        count_type = "0.0"
        r.features.append("edge weights")
    else:
        with r.loop():
            w.emit(f"{acc} += {src}[{r.column()}]")
        n = r.length()
        count_type = "0"
    out = _output(w, ("smoothed", "points_out", "new_points") if vec else ("smoothed", "u_new", "field_out"),
                  "vec3" if vec else "float32")
    mean = f"{acc} / {n}" if count_type == "0.0" else f"{acc} / float({n})"
    if rng.random() < 0.5:
        with w.block(f"if {n} > {count_type}:"):
            w.emit(f"{out}[tid] = {p} + {lam.src} * ({mean} - {p})")
        with w.block("else:"):
            w.emit(f"{out}[tid] = {p}")
    else:  # the new value in a local that starts as the old one, stored once
        new = w.fresh("q")
        w.emit(f"{new} = {p}")
        with w.block(f"if {n} > {count_type}:"):
            lap = w.fresh("lap")
            w.emit(f"{lap} = {mean} - {p}")
            w.emit(f"{new} = {p} + {lam.src} * {lap}")
        w.emit(f"{out}[tid] = {new}")
    r.features.append("Laplacian smoothing over an adjacency" + (" (mesh vertices)" if vec else ""))


def pagerank(r: Rows) -> None:
    """A PageRank step, pulling rank over each node's in-links: (1 - d) / N + d * sum rank[j] /
    out_degree[j] (out-degrees at least 1, or their inverses given)."""
    w, rng = r.w, r.w.rng
    rank = w.add_array(rng.choice(["rank", "ranks", "pr"]), "float32", "input", low=0.0, high=0.25)
    damping = w.add_scalar(rng.choice(["damping", "d", "alpha"]), "float32", rng.choice([0.85, 0.9]))
    inverse = rng.random() < 0.4
    degree = w.add_array(rng.choice(["inv_out_degree", "inv_deg"]) if inverse else rng.choice(["out_degree", "out_deg"]),
                         "float32" if inverse else "int32", "input", low=0.0625 if inverse else 1,
                         high=1.0 if inverse else 16, grid_bits=6 if inverse else 0)
    acc = w.fresh("acc")
    w.emit(f"{acc} = float(0.0)")
    with r.loop():
        j = w.fresh("j")  # read twice: a local
        w.emit(f"{j} = {r.cols}[{r.k}]")
        w.emit(f"{acc} += {rank}[{j}] * {degree}[{j}]" if inverse else f"{acc} += {rank}[{j}] / float({degree}[{j}])")
    new = _output(w, ("rank_new", "next_rank", "new_rank"))
    if rng.random() < 0.3:  # personalised: teleport to a distribution of the nodes' own
        teleport = w.add_array(rng.choice(["teleport", "personalization", "restart"]), "float32", "input",
                               low=0.0, high=0.015625, grid_bits=14)
        value = f"(1.0 - {damping.src}) * {teleport}[tid] + {damping.src} * {acc}"
        r.features.append("personalised PageRank step (pull over in-links)")
    elif rng.random() < 0.35:  # the rank of nodes without out-links spread over all (one-element array)
        dangling = w.add_array(rng.choice(["dangling_sum", "dangling", "sink_rank"]), "float32", "input", shape=(1,),
                               low=0.0, high=0.25)
        n = w.fresh("n")
        w.emit(f"{n} = float({rank}.shape[0])")
        value = f"(1.0 - {damping.src}) / {n} + {damping.src} * ({acc} + {dangling}[0] / {n})"
        r.features.append("PageRank step (pull over in-links; dangling nodes' rank spread)")
    else:
        value = f"(1.0 - {damping.src}) / float({rank}.shape[0]) + {damping.src} * {acc}"
        r.features.append("PageRank step (pull over in-links)")
    r.store(new, value, f"{rank}[tid]", "r_new", ("delta", "diff", "l1_change"), rng.random() < 0.4)  # and the change


def edge_softmax(r: Rows) -> None:
    """A graph attention layer's normalisation: the softmax of each row's edge scores (its maximum
    first, then the exponentials' sum), written per edge, or used at once to aggregate the
    neighbours' features."""
    w, rng = r.w, r.w.rng
    if rng.random() < 0.4:  # GAT: an edge's score from its two nodes' logits, through a leaky ReLU
        source = w.add_array(rng.choice(["a_src", "alpha_src", "el"]), "float32", "input")
        target = w.add_array(rng.choice(["a_dst", "alpha_dst", "er"]), "float32", "input")
        slope = rng.choice(["0.2", None])
        slope = slope or w.add_scalar(rng.choice(["negative_slope", "slope"]), "float32", 0.2).src

        def score() -> str:
            e = w.fresh("e")
            w.emit(f"{e} = {source}[tid] + {target}[{r.column()}]")
            w.emit(f"{e} = wp.where({e} > 0.0, {e}, {slope} * {e})")
            return e
        r.features.append("GAT scores (leaky ReLU of the nodes' logits)")
    else:
        scores = r.values(("scores", "logits", "edge_scores"))

        def score() -> str:
            return r.entry(scores)
    r.skip_empty_row()
    m = w.fresh("m")
    w.emit(f"{m} = float(-1.0e30)")
    total = w.fresh("total")
    if rng.random() < 0.4:  # online: the maximum and the sum in one pass, the sum rescaled as the maximum grows
        w.emit(f"{total} = float(0.0)")
        with r.loop():
            s_k = score()
            m_new = w.fresh("m_new")
            w.emit(f"{m_new} = wp.max({m}, {s_k})")
            w.emit(f"{total} = {total} * wp.exp({m} - {m_new}) + wp.exp({s_k} - {m_new})")
            w.emit(f"{m} = {m_new}")
        r.features.append("online softmax")
    else:
        with r.loop():
            w.emit(f"{m} = wp.max({m}, {score()})")
        w.emit(f"{total} = float(0.0)")
        with r.loop():
            w.emit(f"{total} += wp.exp({score()} - {m})")
    if rng.random() < 0.3 and (r.shortest > 0 or "empty rows return early" in r.features):  # each row's log-sum-exp too
        w.emit(f"{_output(w, ('lse', 'log_norm', 'logsumexp'))}[tid] = {m} + wp.log({total})")
        r.features.append("log-sum-exp per row")
    if rng.random() < 0.5:
        attn = _output(w, ("attn", "weights", "alpha"), shape=(r.entries,))
        with r.loop():
            w.emit(f"{attn}[{r.k}] = wp.exp({score()} - {m}) / {total}")
        r.features.append("softmax over each row's edges")
    else:
        h = w.add_array(rng.choice(["h", "features", "feat"]), "float32", "input")
        acc = w.fresh("acc")
        w.emit(f"{acc} = float(0.0)")
        with r.loop():
            weight = w.fresh("w")
            w.emit(f"{weight} = wp.exp({score()} - {m}) / {total}")
            w.emit(f"{acc} += {weight} * {h}[{r.column()}]")
        w.emit(f"{_output(w, ('h_out', 'aggregated', 'h_new'))}[tid] = {acc}")
        r.features.append("attention-weighted aggregation (softmax over each row's edges)")


def transpose_product(r: Rows) -> None:
    """y = A^T x from the rows of A: each row scatters its entries times its x by `wp.atomic_add`
    (or `+=`, atomic in Warp too) into y at their columns."""
    w, rng = r.w, r.w.rng
    values = r.values()
    vec = rng.random() < 0.3  # a vec3 per row scattered (forces along edges, velocities)
    x = w.add_array(rng.choice(["x", "vec", "u"] if not vec else ["v", "forces_in", "x"]), x_type(vec), "input")
    y = _output(w, ("y", "ATx", "z") if not vec else ("y", "forces", "accum"), x_type(vec))
    if vec:
        r.features.append("vec3 rows")
    r.skip_empty_row()
    xi = w.fresh("xi")
    if rng.random() < 0.3:
        alpha = w.add_scalar(rng.choice(["alpha", "scale"]), "float32", rng.choice([0.5, 2.0, -1.0]))
        w.emit(f"{xi} = {alpha.src} * {x}[tid]")
        r.features.append("scaled by alpha")
    else:
        w.emit(f"{xi} = {x}[tid]")
    with r.loop():
        j = r.column()
        a = r.entry(values)
        if rng.random() < 0.6:
            w.emit(f"wp.atomic_add({y}, {j}, {a} * {xi})")
        else:
            w.emit(f"{y}[{j}] += {a} * {xi}")
    r.features.append("transposed sparse product scattered by atomics")


SPARSE_FORMS: dict[str, Callable[[Rows], None]] = {
    "SpMV": spmv,
    "Jacobi": jacobi,
    "row statistics": row_statistics,
    "Laplacian smoothing": laplacian_smoothing,
    "PageRank": pagerank,
    "edge softmax": edge_softmax,
    "transposed product": transpose_product,
}
FORM_DRAWS = ("SpMV", *SPARSE_FORMS)  # the product is the most common use of the format


# ---- fixed-width rows: ELLPACK storage, k-nearest-neighbour lists -------------------------------------
FIXED_WIDTH_SHARE = 0.35  # of sparse-row kernels
WIDTHS = (3, 4, 6, 8, 12, 16)
ELL_COLUMN_NAMES = ("ell_cols", "cols", "col_idx", "indices")
NEIGHBOUR_NAMES = ("nbr", "neighbors", "knn_idx", "nbr_idx")


class FixedRows:
    """A kernel over rows of exactly `width` entries, as ELLPACK stores a matrix whose rows are alike
    in length and as k-nearest-neighbour searches and fixed-valence meshes store adjacency: a 2-D index
    array `idx[row, k]` (every entry a row of the launch), the loop over a row bound by `idx.shape[1]`,
    a module constant or the literal width."""

    def __init__(self, w: KernelWriter, hints: tuple[str, ...]) -> None:
        rng = w.rng
        self.w = w
        self.rows = w.dim[0]
        self.width = rng.choice(WIDTHS)
        self.idx = w.add_array(rng.choice(hints), "int32", "index", shape=(self.rows, self.width),
                               index_high=self.rows - 1)
        how = rng.random()
        if how < 0.5:
            self.bound = f"{self.idx}.shape[1]"
        elif how < 0.75:
            self.bound = w.add_constant(rng.choice(["K", "WIDTH", "NUM_NEIGHBORS"]), self.width).src
        else:
            self.bound = str(self.width)
        self.k = "k" if rng.random() < 0.7 else "e"
        self.column_local = rng.random() < 0.6  # `j = idx[tid, k]` first, or indexed in place
        self.features: list[str] = [f"fixed-width rows of {self.width} entries"]

    def loop(self):
        return self.w.block(f"for {self.k} in range({self.bound}):")

    def column(self) -> str:
        if self.column_local:
            j = self.w.fresh("j")
            self.w.emit(f"{j} = {self.idx}[tid, {self.k}]")
            return j
        return f"{self.idx}[tid, {self.k}]"

    def count(self) -> str:
        """The row's width as a float, spelled as the loop's bound is."""
        return f"{fmt_float(float(self.width))}" if self.bound == str(self.width) else f"float({self.bound})"


JACOBI_SHARE = 0.25  # of scalar ELLPACK products: a Jacobi sweep instead (a stream of its own)


def ell_spmv(r: FixedRows) -> None:
    """y = A x with A in ELLPACK storage: values and columns as (rows, width) arrays, read along the row;
    x a float or a vec3 field, the values sometimes in half precision, the diagonal sometimes kept apart
    (D + A); stored as it is, as y = alpha A x + beta y, or as the residual b - A x of a solver."""
    w, rng = r.w, r.w.rng
    half = rng.random() < 0.2
    values = w.add_array(rng.choice(["ell_vals", "values", "vals"]), "float16" if half else "float32", "input",
                         shape=(r.rows, r.width))
    vec = rng.random() < 0.2
    x = w.add_array(rng.choice(["x", "vec", "field"] if not vec else ["x", "field", "velocities"]), x_type(vec), "input")
    acc = w.fresh("acc")
    # a Jacobi sweep (session 58; a stream of its own): the off-diagonal part summed, then
    # x_new = (b - (A - D) x) / D, the diagonal kept apart as solvers store it
    jacobi = not vec and random.Random(w.seed ^ 0x7AC0).random() < JACOBI_SHARE
    if jacobi:
        diag = w.add_array(rng.choice(["diag", "diagonal", "a_diag"]), "float32", "input", low=1.0, high=4.0)
        w.emit(f"{acc} = float(0.0)")
    elif not vec and rng.random() < 0.25:
        diag = w.add_array(rng.choice(["diag", "diagonal"]), "float32", "input", low=1.0, high=4.0)
        w.emit(f"{acc} = {diag}[tid] * {x}[tid]")
        r.features.append("diagonal apart (D + A)")
    else:
        w.emit(f"{acc} = wp.vec3(0.0)" if vec else f"{acc} = float(0.0)")
    entry = f"float({values}[tid, {r.k}])" if half else f"{values}[tid, {r.k}]"
    with r.loop():
        j = r.column()
        w.emit(f"{acc} += {entry} * {x}[{j}]")
    if half:
        r.features.append("float16 values")
    if jacobi:
        b = w.add_array(rng.choice(["b", "rhs"]), "float32", "input")
        x_new = _output(w, ("x_new", "x_next", "x_out"), "float32")
        if random.Random(w.seed ^ 0x7AC1).random() < 0.4:  # damped: omega of the update, 1 - omega of x kept
            omega = w.add_scalar(rng.choice(["omega", "damping"]), "float32", rng.choice([0.5, 0.6666667, 0.8]))
            w.emit(f"{x_new}[tid] = (1.0 - {omega.src}) * {x}[tid] + {omega.src} * ({b}[tid] - {acc}) / {diag}[tid]")
            r.features.append("ELLPACK damped Jacobi sweep (off-diagonal entries, the diagonal apart)")
        else:
            w.emit(f"{x_new}[tid] = ({b}[tid] - {acc}) / {diag}[tid]")
            r.features.append("ELLPACK Jacobi sweep (off-diagonal entries, the diagonal apart)")
        return
    how = rng.random()
    if how < 0.25:  # y = alpha A x + beta y, as a solver's update is written
        y = _output(w, ("y", "Ax", "out"), x_type(vec))
        alpha = w.add_scalar(rng.choice(["alpha", "scale"]), "float32", rng.choice([0.5, 2.0, -1.0]))
        beta = w.add_scalar("beta", "float32", rng.choice([0.5, 1.0, -0.5]))
        w.make_inout(y)
        w.emit(f"{y}[tid] = {alpha.src} * {acc} + {beta.src} * {y}[tid]")
        r.features.append("ELLPACK sparse matrix-vector product (y = alpha A x + beta y)")
    elif how < 0.45:  # a solver's residual, and sometimes its squared norm summed over the rows
        b = w.add_array(rng.choice(["b", "rhs"]), x_type(vec), "input")
        res = w.fresh("res")
        w.emit(f"{res} = {b}[tid] - {acc}")
        w.emit(f"{_output(w, ('r', 'residual', 'res_out'), x_type(vec))}[tid] = {res}")
        if rng.random() < 0.5:
            norm = w.add_array(rng.choice(["r_norm_sq", "res_sq"]), "float32", "output", shape=(1,))
            w.emit(f"wp.atomic_add({norm}, 0, wp.dot({res}, {res}))" if vec else f"wp.atomic_add({norm}, 0, {res} * {res})")
            r.features.append("squared residual summed by atomics")
        r.features.append("ELLPACK residual (b - A x)")
    else:
        w.emit(f"{_output(w, ('y', 'Ax', 'out'), x_type(vec))}[tid] = {acc}")
        r.features.append("ELLPACK sparse matrix-vector product")


def neighbour_pool(r: FixedRows) -> None:
    """A point cloud's or a graph's pooling over each point's k nearest neighbours: the largest
    feature (max pooling, started at the point's own; its neighbour's slot too), the mean (a float or a
    vec3 feature; weighted per edge and normalised by the weights' sum), or both (PointNet's pair)."""
    w, rng = r.w, r.w.rng
    kind = rng.choice(["max", "argmax", "mean", "mean", "weighted mean", "mean and max"])
    vec = kind in ("mean", "weighted mean") and rng.random() < 0.4
    feat = w.add_array(rng.choice(["feat", "features", "h"] if not vec else ["normals", "vel", "colors"]),
                       x_type(vec), "input")
    weights = None
    if kind == "weighted mean":
        weights = w.add_array(rng.choice(["edge_w", "weights", "affinity"]), "float32", "input",
                              shape=(r.rows, r.width), low=0.25, high=1.0)
    mean_acc = max_acc = best = None
    if kind in ("mean", "weighted mean", "mean and max"):
        mean_acc = w.fresh("acc")
        w.emit(f"{mean_acc} = wp.vec3(0.0)" if vec else f"{mean_acc} = float(0.0)")
    if weights is not None:
        wsum = w.fresh("wsum")
        w.emit(f"{wsum} = float(0.0)")
    if kind in ("max", "argmax", "mean and max"):
        max_acc = w.fresh("m")
        w.emit(f"{max_acc} = {feat}[tid]")
    if kind == "argmax":
        best = w.fresh("best")
        w.emit(f"{best} = int(-1)")  # -1: the point's own feature is the largest
    if kind in ("argmax", "weighted mean", "mean and max"):
        r.column_local = True  # the neighbour's index serves two reads
    with r.loop():
        j = r.column()
        v = f"{feat}[{j}]"
        if kind in ("argmax", "mean and max"):
            fv = w.fresh("f")
            w.emit(f"{fv} = {v}")
            v = fv
        if kind == "weighted mean":
            wt = w.fresh("wt")
            w.emit(f"{wt} = {weights}[tid, {r.k}]")
            w.emit(f"{mean_acc} += {wt} * {v}")
            w.emit(f"{wsum} += {wt}")
        elif mean_acc is not None:
            w.emit(f"{mean_acc} += {v}")
        if kind == "argmax":
            with w.block(f"if {v} > {max_acc}:"):
                w.emit(f"{max_acc} = {v}")
                w.emit(f"{best} = {r.k}")
        elif max_acc is not None:
            w.emit(f"{max_acc} = wp.max({max_acc}, {v})")
    if mean_acc is not None:
        out = _output(w, ("pooled", "nbr_mean", "smoothed"), x_type(vec))
        w.emit(f"{out}[tid] = {mean_acc} / {wsum}" if weights is not None else f"{out}[tid] = {mean_acc} / {r.count()}")
    if max_acc is not None:
        w.emit(f"{_output(w, ('pooled_max', 'h_max', 'nbr_max'))}[tid] = {max_acc}")
    if best is not None:
        w.emit(f"{_output(w, ('argmax', 'best_slot', 'winner'), 'int32')}[tid] = {best}")
    r.features.append(f"{kind} over the k nearest neighbours" + (" (vec3)" if vec else ""))


def edge_conv(r: FixedRows) -> None:
    """An edge convolution (DGCNN's EdgeConv with scalar weights): each edge's feature from the
    neighbour's difference and the point's own, through a ReLU, the largest over the k neighbours
    (a `wp.max`, or a test that also keeps the winning neighbour), or their mean."""
    w, rng = r.w, r.w.rng
    feat = w.add_array(rng.choice(["feat", "x", "h"]), "float32", "input")
    theta = w.add_scalar(rng.choice(["theta", "w_edge"]), "float32", rng.choice([0.5, 1.5, -0.75]))
    phi = w.add_scalar(rng.choice(["phi", "w_self"]), "float32", rng.choice([0.25, 0.5, 1.0]))
    biased = rng.random() < 0.4
    bias = w.add_scalar(rng.choice(["bias", "b"]), "float32", rng.choice([-0.25, 0.125])) if biased else None
    xi = w.fresh("xi")
    w.emit(f"{xi} = {feat}[tid]")
    own = w.fresh("own")
    w.emit(f"{own} = {phi.src} * {xi}" + (f" + {bias.src}" if biased else ""))
    m = w.fresh("m")
    w.emit(f"{m} = float(0.0)")  # every edge's feature is a ReLU's, >= 0
    keep = rng.random() < 0.35
    # session 52, from a stream of its own: the edges' features averaged (a GNN's mean aggregation)
    mean = not keep and takes_variant(w.seed, 0xED6E)
    if keep:
        best = w.fresh("best")
        w.emit(f"{best} = int(-1)")  # -1: no edge's feature above 0
    with r.loop():
        j = r.column()
        edge = f"{theta.src} * ({feat}[{j}] - {xi}) + {own}"
        if mean:
            w.emit(f"{m} += wp.max({edge}, 0.0)")
        elif keep:
            e = w.fresh("e")
            w.emit(f"{e} = {edge}")
            with w.block(f"if {e} > {m}:"):
                w.emit(f"{m} = {e}")
                w.emit(f"{best} = {j}")
        else:
            w.emit(f"{m} = wp.max({m}, {edge})")
    w.emit(f"{_output(w, ('h_out', 'edge_feat', 'h_new'))}[tid] = {m}" + (f" / {r.count()}" if mean else ""))
    if keep:
        w.emit(f"{_output(w, ('argmax', 'best_nbr', 'source_idx'), 'int32')}[tid] = {best}")
        r.features.append("the winning neighbour kept")
    r.features.append(f"edge convolution ({'mean' if mean else 'max'} over the neighbours of a ReLU)"
                      + ("; bias" if biased else ""))


def fixed_valence_smoothing(r: FixedRows) -> None:
    """Laplacian smoothing of a mesh's vertices whose valence is fixed (a regular grid's, a subdivision
    surface's): each vertex moved toward its neighbours' centroid by a factor (pinned vertices kept),
    or the umbrella vector (the centroid minus the vertex, a mesh's differential coordinates) stored."""
    w, rng = r.w, r.w.rng
    points = w.add_array(rng.choice(["points", "verts", "positions"]), "vec3", "input")
    p = w.fresh("p")
    w.emit(f"{p} = {points}[tid]")
    acc = w.fresh("centroid")
    w.emit(f"{acc} = wp.vec3(0.0)")
    with r.loop():
        w.emit(f"{acc} += {points}[{r.column()}]")
    w.emit(f"{acc} = {acc} / {r.count()}")
    if rng.random() < 0.6:
        lam = w.add_scalar(rng.choice(["lam", "smoothing", "relax"]), "float32", rng.choice([0.25, 0.5, 0.75]))
        out = _output(w, ("smoothed", "points_out", "new_points"), "vec3")
        moved = f"{p} + {lam.src} * ({acc} - {p})"
        if rng.random() < 0.35:  # boundary or constrained vertices stay where they are
            pinned = w.add_array(rng.choice(["pinned", "fixed", "is_boundary"]), "int32", "input", low=0, high=1,
                                 grid_bits=0)
            w.emit(f"{out}[tid] = wp.where({pinned}[tid] != 0, {p}, {moved})")
            r.features.append("pinned vertices kept")
        else:
            w.emit(f"{out}[tid] = {moved}")
        r.features.append("Laplacian smoothing of fixed-valence vertices")
    else:
        w.emit(f"{_output(w, ('delta', 'umbrella', 'laplacian'), 'vec3')}[tid] = {acc} - {p}")
        r.features.append("umbrella operator (differential coordinates)")


def idw_interpolation(r: FixedRows) -> None:
    """Scattered-data interpolation from each query's k nearest samples (a float or a vec3 per sample),
    weighted by inverse squared distance (Shepard's method), inverse distance, or a Gaussian of it,
    normalised by the weights' sum."""
    w, rng = r.w, r.w.rng
    query = w.add_array(rng.choice(["query", "query_pos", "targets"]), "vec3", "input")
    samples = w.add_array(rng.choice(["sample_pos", "src_pos", "sites"]), "vec3", "input")
    vec = rng.random() < 0.3
    vals = w.add_array(rng.choice(["sample_val", "src_val", "site_values"] if not vec else ["sample_vel", "src_vel"]),
                       x_type(vec), "input")
    weighting = rng.choice(["inverse square", "inverse distance", "gaussian"])
    if weighting == "gaussian":
        h = w.add_scalar(rng.choice(["h", "bandwidth", "sigma"]), "float32", rng.choice([0.5, 1.0, 2.0]))
        inv = w.fresh("inv_2h2")
        w.emit(f"{inv} = 1.0 / (2.0 * {h.src} * {h.src})")
    else:
        eps = w.add_scalar(rng.choice(["eps", "epsilon", "soften"]), "float32", rng.choice([0.0625, 0.125, 0.25]))
    q = w.fresh("q")
    w.emit(f"{q} = {query}[tid]")
    acc, wsum = w.fresh("acc"), w.fresh("wsum")
    w.emit(f"{acc} = wp.vec3(0.0)" if vec else f"{acc} = float(0.0)")
    w.emit(f"{wsum} = float(0.0)")
    r.column_local = True  # the neighbour's index serves two reads
    with r.loop():
        j = r.column()
        d = w.fresh("d")
        w.emit(f"{d} = {q} - {samples}[{j}]")
        wt = w.fresh("wt")
        if weighting == "inverse square":
            w.emit(f"{wt} = 1.0 / (wp.dot({d}, {d}) + {eps.src})")
        elif weighting == "inverse distance":
            w.emit(f"{wt} = 1.0 / (wp.length({d}) + {eps.src})")
        else:
            w.emit(f"{wt} = wp.exp(-wp.length_sq({d}) * {inv})")
        w.emit(f"{acc} += {wt} * {vals}[{j}]")
        w.emit(f"{wsum} += {wt}")
    out = _output(w, ("interp", "values_out", "estimate"), x_type(vec))
    if weighting == "gaussian":  # far from every sample the weights vanish: nothing to normalise
        w.emit(f"{out}[tid] = {acc} / wp.max({wsum}, 1.0e-6)")
    else:
        w.emit(f"{out}[tid] = {acc} / {wsum}")
    r.features.append(f"scattered-data interpolation ({weighting} weights)")


FIXED_FORMS: dict[str, tuple[Callable[[FixedRows], None], tuple[str, ...]]] = {
    "ELL SpMV": (ell_spmv, ELL_COLUMN_NAMES),
    "neighbour pooling": (neighbour_pool, NEIGHBOUR_NAMES),
    "edge convolution": (edge_conv, NEIGHBOUR_NAMES),
    "fixed-valence smoothing": (fixed_valence_smoothing, ("nbr", "vert_nbrs", "one_ring", "adj")),
    "IDW interpolation": (idw_interpolation, NEIGHBOUR_NAMES),
}


def chooses_fixed_width(seed: int) -> bool:
    """Whether sparse-row kernel `seed` has rows of one width (a stream of its own: the CSR kernels keep
    every draw)."""
    return random.Random(seed ^ 0xE11A).random() < FIXED_WIDTH_SHARE


def fixed_width_kernel(rng: random.Random, name: str, seed: int) -> KernelSpec:
    form = rng.choice(list(FIXED_FORMS))
    build, hints = FIXED_FORMS[form]
    w = KernelWriter(rng, name, "control_flow", seed, pick_dim(rng))
    w.output_update_share = 0.0
    w.intermediate_output_share = 0.0
    if rng.random() < 0.15:
        padded_launch(w, ["num_rows", "n_rows", "n_points"])
    rows = FixedRows(w, hints)
    build(rows)
    for feature in rows.features:
        w.feature(feature)
    return w.finish("Fixed-width row kernel")


def chooses_sparse(seed: int) -> bool:
    """Whether control_flow kernel `seed` walks CSR rows: a stream of its own, so the others keep every draw."""
    return random.Random(seed ^ 0x5C5).random() < SPARSE_SHARE


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    if chooses_fixed_width(seed):
        return fixed_width_kernel(rng, name, seed)
    form = rng.choice(FORM_DRAWS)
    w = KernelWriter(rng, name, "control_flow", seed, pick_dim(rng))
    # a row's result is stored as it is: no output turned into an accumulation, no intermediate kept
    w.output_update_share = 0.0
    w.intermediate_output_share = 0.0
    if rng.random() < 0.15:  # rows padded to whole blocks
        padded_launch(w, ["num_rows", "n_rows", "n"])
    rows = Rows(w)
    SPARSE_FORMS[form](rows)
    for feature in rows.features:
        w.feature(feature)
    return w.finish("Sparse-row kernel")
