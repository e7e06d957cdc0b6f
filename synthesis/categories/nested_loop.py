"""Nested loops: the loop nests people write, one table entry per form (NESTED_FORMS).

A kernel holds one loop nest, a computation with a name: a dense layer (rows of a
weight matrix times the thread's feature row, a bias, an activation), a matrix product one output row
per thread (with each row's norm), the nearest centroid (k-means' assignment step), attention with an
online or two-pass softmax (causal by the loop's bound or by a `continue` mask), a tensor-product
polynomial (nested Horner, or a sum of monomials with running powers), the pair energy of a chain (a
triangular `range(a + 1, m)`, with the closest pair's distance),
quadrature over a cell (midpoint or trapezoid rule, in two or three dimensions), a 2-D convolution or
box blur (clamped or guarded borders), and Conway's Game of Life (periodic or guarded neighbourhood,
the centre skipped with `!=` or `continue`).

Inner bounds are literals, kernel parameters or an array's extent (`feats.shape[1]`), as such code
spells them. Comparisons that decide a branch read exact values (integers, or sums of squares of
values on a power-of-two grid), so Warp, the standalone CUDA and float64 Python take the same branch.
"""
from __future__ import annotations

import random
from contextlib import ExitStack
from typing import Callable

from synthesis.categories.common import early_return
from synthesis.categories.control_flow import _temp
from synthesis.exprgen import Expr, KernelWriter, fmt_float
from synthesis.spec import KernelSpec

ZERO = Expr("0.0", "float32", 0.0, 0, lit=True)


def _factor(text: str) -> str:
    """`text` as a factor of a product: parenthesised where an operator outside any parentheses
    binds less tightly than `*` or would regroup (`w * 1.0 / (1.0 + e)` reads as `(w * 1.0) / ...`)."""
    depth = 0
    for k, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and ch == " " and text[k + 1:k + 2] in ("+", "-", "/"):
            return f"({text})"
    return text


def _sum_line(w: KernelWriter, acc: str, term: str) -> str:
    """`acc += term`, or `acc = acc + term`: both spellings are common."""
    return f"{acc} += {term}" if w.rng.random() < 0.6 else f"{acc} = {acc} + {term}"


def _add(w: KernelWriter, acc: str, term: str) -> None:
    w.emit(_sum_line(w, acc, term))


def _extent(w: KernelWriter, array: str, axis: int, hints: tuple[str, ...]) -> str:
    """An inner loop bound: the literal extent, a kernel parameter holding it, or `array.shape[axis]`."""
    size = w.arg(array).shape[axis]
    r = w.rng.random()
    if r < 0.25:
        w.feature("argument loop bound")
        return w.add_scalar(w.rng.choice(hints), "int32", size).src
    if r < 0.5:
        w.feature("bound from .shape")
        return f"{array}.shape[{axis}]"
    return str(size)


def _row_array(w: KernelWriter, hints: tuple[str, ...], width: int, grid_bits: int = 10,
               low: float = -1.0, high: float = 1.0) -> str:
    """An input holding a row of `width` values per thread (shape n x width)."""
    return w.add_array(w.rng.choice(hints), "float32", "input", shape=(w.dim[0], width), low=low, high=high,
                       grid_bits=grid_bits)


def _table(w: KernelWriter, hints: tuple[str, ...], shape: tuple[int, ...], grid_bits: int = 10) -> str:
    """A weight table every thread reads whole (not at its own index)."""
    table = w.add_array(w.rng.choice(hints), "float32", "input", shape=shape, grid_bits=grid_bits)
    if table in w.unused:
        w.unused.remove(table)
    return table


def _output(w: KernelWriter, hint: str, value: Expr, dtype: str = "float32") -> str:
    name = w.add_array(hint, dtype, "output")
    w.store(name, value)
    return name


# ---- the loop nests -----------------------------------------------------------------------------


def dense_layer(w: KernelWriter) -> None:
    """A fully connected layer on the thread's feature row: h[o] = act(b[o] + sum_c W[o, c] x[c]);
    written out per unit (a 2-D output), or reduced by a second layer's weights to one value."""
    n_in, n_out = w.rng.choice([3, 4, 6, 8]), w.rng.choice([2, 4, 8])
    feats = _row_array(w, ("features", "feats", "x_in", "inputs"), n_in)
    weights = _table(w, ("weights", "w_hidden", "W"), (n_out, n_in))
    bias = _table(w, ("bias", "b_hidden"), (n_out,)) if w.rng.random() < 0.7 else None
    act = w.rng.choice(["relu", "tanh", "sigmoid", "none", "leaky relu", "softplus"])
    reduce = w.rng.random() < 0.4
    bound = _extent(w, feats, 1, ("n_in", "in_features"))
    o, c, acc = _temp(w, "o"), _temp(w, "c"), _temp(w, "acc")
    mag = n_in + (1.0 if bias else 0.0)
    if reduce:
        head = _table(w, ("w_out", "readout", "v"), (n_out,))
        y = w.declare(w.fresh("y"), ZERO, n_out * mag, None)
    else:
        out = w.add_array(w.rng.choice(["hidden", "h_out", "activations"]), "float32", "output",
                          shape=(w.dim[0], n_out))
    cache = w.rng.random() < 0.4
    with w.block(f"for {o} in range({n_out}):"):
        w.emit(f"{acc} = {bias}[{o}]" if bias else f"{acc} = float(0.0)")
        with w.block(f"for {c} in range({bound}):"):
            term = f"{weights}[{o}, {c}] * {feats}[{w.tid_names[0]}, {c}]" if w.rng.random() < 0.5 \
                else f"{feats}[{w.tid_names[0]}, {c}] * {weights}[{o}, {c}]"
            _add(w, acc, term)
        value = {"relu": f"wp.max({acc}, 0.0)", "tanh": f"wp.tanh({acc})",
                 "sigmoid": f"1.0 / (1.0 + wp.exp(-{acc}))", "none": acc,
                 "leaky relu": f"wp.max({acc}, {fmt_float(w.rng.choice([0.01, 0.1, 0.2]))} * {acc})",
                 "softplus": f"wp.log(1.0 + wp.exp({acc}))"}[act]
        if cache and act != "none":
            w.emit(f"{_temp(w, 'h')} = {value}")
            value = _temp(w, "h")
        if reduce:
            _add(w, y.src, f"{head}[{o}] * {_factor(value)}")
        else:
            w.emit(f"{out}[{w.tid_names[0]}, {o}] = {value}")
            w.note_bound(out, mag)
    if reduce:
        _output(w, w.rng.choice(["score", "y_out", "logit"]), y)
    w.feature(f"dense layer ({act if act != 'none' else 'linear'})" + (" reduced by output weights" if reduce else ""))


# Session 58: of the row-per-thread products without GEMM's update or a row norm, those written in
# i-k-j order (drawn from a stream of their own: the others keep every draw).
IKJ_SHARE = 0.3


def row_matmul(w: KernelWriter) -> None:
    """C = A B (or A B^T) with one output row per thread: for each column, a dot product over the
    shared axis; written as is, or as GEMM's C = alpha A B + beta C on an in-out C."""
    k_dim, m_dim = w.rng.choice([3, 4, 6, 8]), w.rng.choice([2, 3, 4, 6])
    a = _row_array(w, ("a_rows", "lhs", "A"), k_dim)
    transposed = w.rng.random() < 0.35
    b = _table(w, ("rhs", "B", "basis"), (m_dim, k_dim) if transposed else (k_dim, m_dim))
    # a bias per output column starts each sum (A B + b, a projection with an offset)
    bias = _table(w, ("bias", "col_bias", "offset"), (m_dim,)) if w.rng.random() < 0.3 else None
    gemm = w.rng.random() < 0.35
    out = w.add_array(w.rng.choice(["product", "C", "projected"]), "float32", "inout" if gemm else "output",
                      shape=(w.dim[0], m_dim))
    t = w.tid_names[0]
    j, k, s = _temp(w, "j"), _temp(w, "k"), _temp(w, "s")
    inner = _extent(w, a, 1, ("inner_dim", "k_dim"))
    cols = _extent(w, b, 0 if transposed else 1, ("n_cols", "m_dim"))
    if gemm:
        alpha = w.add_scalar("alpha", "float32", w.rng.choice([0.5, 1.0, 2.0])).src
        beta = w.add_scalar("beta", "float32", w.rng.choice([0.5, 1.0, -1.0])).src
    # the product row's Euclidean norm beside it (a projection's length, a feature's magnitude)
    row_norm = w.declare(w.fresh("norm_sq"), ZERO, (3.0 * (k_dim + 1)) ** 2 * m_dim, None) \
        if not gemm and w.rng.random() < 0.25 else None
    if not gemm and row_norm is None and random.Random(w.seed ^ 0x1C7).random() < IKJ_SHARE:
        # i-k-j order: the row of C starts at its bias (or zero), then each element of A's row, read
        # once, scales a row of B into it (B is read along its rows, as it lies in memory)
        with w.block(f"for {j} in range({cols}):"):
            w.emit(f"{out}[{t}, {j}] = {bias}[{j}]" if bias else f"{out}[{t}, {j}] = 0.0")
        a_k = _temp(w, "a_ik")
        with w.block(f"for {k} in range({inner}):"):
            w.emit(f"{a_k} = {a}[{t}, {k}]")
            with w.block(f"for {j} in range({cols}):"):
                w.emit(f"{out}[{t}, {j}] += {a_k} * {b}[{j}, {k}]" if transposed
                       else f"{out}[{t}, {j}] += {a_k} * {b}[{k}, {j}]")
        w.note_bound(out, 3.0 * (k_dim + 1))
        w.feature("matrix product (a row per thread, i-k-j order: each element of A scales a row of B)")
        if bias:
            w.feature("bias per column")
        if transposed:
            w.feature("transposed operand")
        return
    with w.block(f"for {j} in range({cols}):"):
        w.emit(f"{s} = {bias}[{j}]" if bias else f"{s} = float(0.0)")
        with w.block(f"for {k} in range({inner}):"):
            _add(w, s, f"{a}[{t}, {k}] * {b}[{j}, {k}]" if transposed else f"{a}[{t}, {k}] * {b}[{k}, {j}]")
        if gemm:
            w.emit(f"{out}[{t}, {j}] = {alpha} * {s} + {beta} * {out}[{t}, {j}]")
        else:
            w.emit(f"{out}[{t}, {j}] = {s}")
        if row_norm:
            _add(w, row_norm.src, f"{s} * {s}")
    w.note_bound(out, 3.0 * (k_dim + 1))
    if row_norm:
        w.note_varying(row_norm.src, a)
        _output(w, w.rng.choice(["row_norm", "norms", "magnitude"]),
                Expr(f"wp.sqrt({row_norm.src})", "float32", 3.0 * (k_dim + 1) * m_dim, None, atom=False))
        w.feature("norm of each product row")
    w.feature("GEMM (C = alpha A B + beta C)" if gemm else "matrix product (a row per thread)")
    if bias:
        w.feature("bias per column")
    if transposed:
        w.feature("transposed operand")


def nearest_centroid(w: KernelWriter) -> None:
    """k-means' assignment step: the squared (or Manhattan) distance to each centroid over the
    coordinates, the nearest one's index, and optionally each cluster's size counted with an atomic
    add. Coordinates on a 1/8 grid keep every distance exact."""
    dims, k = w.rng.choice([2, 3, 4]), w.rng.choice([3, 4, 5, 8])
    pts = _row_array(w, ("points", "samples", "coords"), dims, grid_bits=3, low=-2.0, high=2.0)
    cent = _table(w, ("centroids", "centers", "means"), (k, dims), grid_bits=3)
    t = w.tid_names[0]
    manhattan = w.rng.random() < 0.3
    best = w.declare(w.fresh("best_d"), Expr("1.0e30", "float32", 1.0e30, None, lit=True), 1.0e30, None)
    # the runner-up's distance too, for the assignment's margin (how clearly the point belongs)
    margin = w.rng.random() < 0.3
    second = w.declare(w.fresh("second_d"), Expr("1.0e30", "float32", 1.0e30, None, lit=True), 1.0e30, None) \
        if margin else None
    label = w.declare(w.fresh("label"), Expr("0", "int32", 0.0, 0, lit=True), float(k), 0)
    c, d, dist, diff = _temp(w, "c"), _temp(w, "d"), _temp(w, "dist"), _temp(w, "diff")
    dims_bound = _extent(w, pts, 1, ('n_dims', 'dims'))
    with w.block(f"for {c} in range({_extent(w, cent, 0, ('n_clusters', 'k'))}):"):
        w.emit(f"{dist} = float(0.0)")
        with w.block(f"for {d} in range({dims_bound}):"):
            w.emit(f"{diff} = {pts}[{t}, {d}] - {cent}[{c}, {d}]")
            _add(w, dist, f"wp.abs({diff})" if manhattan else f"{diff} * {diff}")
        with w.block(f"if {dist} < {best.src}:"):
            if margin:
                w.emit(f"{second.src} = {best.src}")
            w.emit(f"{best.src} = {dist}")
            w.emit(f"{label.src} = {c}")
        if margin:
            with w.block(f"elif {dist} < {second.src}:"):
                w.emit(f"{second.src} = {dist}")
    w.note_varying(best.src, pts)
    w.note_varying(label.src, pts)
    # a cluster label is a class, replaced each assignment step: never added to or blended with
    w.state_outputs.add(_output(w, w.rng.choice(["assignment", "labels", "cluster"]), label, "int32"))
    if margin:
        w.note_varying(second.src, pts)
        _output(w, w.rng.choice(["margin", "gap"]), Expr(f"{second.src} - {best.src}", "float32", 8.0 * dims, None, atom=False))
        w.feature("assignment margin (runner-up distance)")
    elif w.rng.random() < 0.5:
        value = f"wp.sqrt({best.src})" if not manhattan and w.rng.random() < 0.5 else best.src
        _output(w, w.rng.choice(["distance", "min_dist"]), Expr(value, "float32", 4.0 * dims, None))
    if w.rng.random() < 0.4:
        sizes = w.add_array(w.rng.choice(["cluster_sizes", "counts"]), "int32", "output", shape=(k,))
        w.emit(f"wp.atomic_add({sizes}, {label.src}, 1)")
        w.note_bound(sizes, float(w.dim[0]))
        w.feature("cluster sizes by atomic add")
    if w.rng.random() < 0.3:  # the update step's sums: each point's coordinates into its cluster's row
        sums = w.add_array(w.rng.choice(["coord_sums", "new_centroids", "centroid_acc"]), "float32", "output",
                           shape=(k, dims))
        with w.block(f"for {d} in range({dims_bound}):"):
            w.emit(f"{sums}[{label.src}, {d}] += {pts}[{t}, {d}]")
        w.note_bound(sums, 2.0 * w.dim[0])
        w.feature("coordinates summed per cluster (update step)")
    w.feature("nearest centroid (k-means assignment" + (", Manhattan distance)" if manhattan else ")"))


# Session 58, of attention kernels (a stream of their own): vector values of 2 or 4, a bias per key, ALiBi's
# penalty (causal attention only)
WIDE_VALUES_SHARE = 0.5
KEY_BIAS_SHARE = 0.2
ALIBI_SHARE = 0.35


def attention(w: KernelWriter) -> None:
    """One query row per thread against the keys it may see (all of them, its first valid_len, or, in
    causal attention over batched sequences, those up to its own position): scaled dot-product
    scores, a softmax (online: the running maximum rescales the sums; or two passes: the maximum
    first), and the weighted mean of the values (scalars, or vectors)."""
    dim, keys_n = w.rng.choice([2, 4, 8, 16]), w.rng.choice([4, 6, 8, 16])
    q = _row_array(w, ("query", "q_rows", "queries"), dim)
    keys = _table(w, ("keys", "k_rows"), (keys_n, dim))
    vtype = w.rng.choice(["float32", "float32", "vec3"])
    extra = random.Random(w.seed ^ 0xA77E)  # session 58's variants, a stream of their own
    if vtype == "vec3" and extra.random() < WIDE_VALUES_SHARE:  # a value row of 2 or 4 (a head's features)
        vtype = extra.choice(["vec2", "vec4"])
    vals = w.add_array(w.rng.choice(["values", "v_rows"]), vtype, "input", shape=(keys_n,))
    w.unused.remove(vals)
    t = w.tid_names[0]
    # 1 / sqrt(dim): a literal where it is a short one, else a parameter the caller computes
    if dim in (4, 16) and w.rng.random() < 0.6:
        scale = fmt_float(1.0 / dim ** 0.5)
    else:
        scale = w.add_scalar(w.rng.choice(["scale", "inv_sqrt_d"]), "float32", 1.0 / dim ** 0.5).src
    two_pass = w.rng.random() < 0.35
    zero_v = "float(0.0)" if vtype == "float32" else f"wp.{vtype}(0.0)"
    run_max = w.declare(w.fresh("m"), Expr("-1.0e30", "float32", 1.0e30, None, lit=True), 1.0e30, None)
    j, c, score, m_new, corr, p = (_temp(w, h) for h in ("j", "c", "score", "m_new", "corr", "p"))
    # which keys the query sees: padded sequences (its first valid_len, at least one), causal
    # attention over batched sequences (up to its own position), or all
    seen = w.rng.random()
    masked = False
    if seen < 0.3:
        lengths = w.add_array(w.rng.choice(["valid_len", "seq_lens", "n_valid"]), "int32", "input", low=1,
                              high=keys_n, grid_bits=0)
        count = w.load(lengths).src
        w.feature("attention over each query's valid keys")
    elif seen < 0.55:
        seq = _extent(w, keys, 0, ("seq_len", "n_keys"))
        pos = _temp(w, "pos")
        w.emit(f"{pos} = {t} % {seq}")
        count = f"{pos} + 1"
        if w.rng.random() < 0.4:  # every key visited, the later ones masked out (as a mask is applied)
            masked, count = True, seq
            w.feature("causal mask (later keys skipped with continue)")
        w.feature("causal attention (keys up to the query's position)")
    else:
        count = _extent(w, keys, 0, ("n_keys", "seq_len"))

    add = _sum_line(w, score, f"{q}[{t}, {c}] * {keys}[{j}, {c}]")  # one spelling for both passes
    # a bias added to each scaled score: a learned one per key position, or ALiBi's linear penalty on
    # the distance back to a causal query's own position
    scaled = f"{score} * {scale}"
    bias_draw = extra.random()
    if bias_draw < KEY_BIAS_SHARE:
        key_bias = _table(w, ("key_bias", "pos_bias", "score_bias"), (keys_n,))
        scaled = f"{score} * {scale} + {key_bias}[{j}]"
        w.feature("a learned bias per key position")
    elif bias_draw < KEY_BIAS_SHARE + ALIBI_SHARE and 0.3 <= seen < 0.55:
        slope = w.add_scalar(extra.choice(["alibi_slope", "slope", "m_head"]), "float32",
                             extra.choice([0.5, 0.25, 0.125, 0.0625])).src
        scaled = f"{score} * {scale} - {slope} * float({pos} - {j})"
        w.feature("ALiBi distance penalty")

    def scores() -> None:
        if masked:
            with w.block(f"if {j} > {pos}:"):
                w.emit("continue")
        w.emit(f"{score} = float(0.0)")
        with w.block(f"for {c} in range({dim}):"):
            w.emit(add)
        w.emit(f"{score} = {scaled}")

    if two_pass:
        with w.block(f"for {j} in range({count}):"):
            scores()
            w.emit(f"{run_max.src} = wp.max({run_max.src}, {score})")
    denom = w.declare(w.fresh("denom"), ZERO, float(keys_n), None)
    acc = w.fresh("acc")
    w.emit(f"{acc} = {zero_v}")
    with w.block(f"for {j} in range({count}):"):
        scores()
        if two_pass:
            w.emit(f"{p} = wp.exp({score} - {run_max.src})")
            w.emit(f"{denom.src} += {p}")
            w.emit(f"{acc} += {p} * {vals}[{j}]")
        else:
            w.emit(f"{m_new} = wp.max({run_max.src}, {score})")
            w.emit(f"{corr} = wp.exp({run_max.src} - {m_new})")
            w.emit(f"{p} = wp.exp({score} - {m_new})")
            w.emit(f"{denom.src} = {denom.src} * {corr} + {p}")
            w.emit(f"{acc} = {acc} * {corr} + {p} * {vals}[{j}]")
            w.emit(f"{run_max.src} = {m_new}")
    w.note_varying(acc, q)
    out = w.add_array(w.rng.choice(["attended", "context", "ctx_out"]), vtype, "output")
    w.store(out, Expr(f"{acc} / {denom.src}", vtype, 1.0, None, atom=False))
    if w.rng.random() < 0.4:  # the log-sum-exp of the scores, kept for the backward pass
        _output(w, w.rng.choice(["lse", "logsumexp"]),
                Expr(f"{run_max.src} + wp.log({denom.src})", "float32", 4.0 * dim + 3.0, None, atom=False))
        w.feature("log-sum-exp saved")
    if vtype != "float32":
        w.feature("vector values")
    w.feature("attention (" + ("two-pass softmax" if two_pass else "online softmax") + ")")


def tensor_polynomial(w: KernelWriter) -> None:
    """p(x, y) = sum_ab c[a, b] x^a y^b by nested Horner: each row in the inner variable, then the rows
    in the outer one; optionally the derivative in the outer variable alongside."""
    px, py = w.rng.choice([2, 3, 4]), w.rng.choice([2, 3, 4])
    if w.rng.random() < 0.35:  # the point as one vec2 per thread
        pts = w.add_array(w.rng.choice(["uv", "pts", "xy"]), "vec2", "input", low=-1.0, high=1.0)
        p = w.load(pts)
        x, y = Expr(f"{p.src}[0]", "float32", 1.0, 10), Expr(f"{p.src}[1]", "float32", 1.0, 10)
    else:
        x = w.load(w.add_array(w.rng.choice(["x", "u", "s"]), "float32", "input", low=-1.0, high=1.0))
        y = w.load(w.add_array(w.rng.choice(["y", "v", "t_in"]), "float32", "input", low=-1.0, high=1.0))
    if w.rng.random() < 0.3:  # a fit made in scaled coordinates: the point scaled to them first
        factor = w.rng.choice([0.5, 2.0])
        scale = w.add_scalar(w.rng.choice(["inv_scale", "inv_extent", "domain_scale"]), "float32", factor).src
        x = w.assign(Expr(f"{x.src} * {scale}", "float32", x.mag * factor, None, atom=False), prefix="xs")
        y = w.assign(Expr(f"{y.src} * {scale}", "float32", y.mag * factor, None, atom=False), prefix="ys")
        w.feature("evaluated in scaled coordinates")
    coef = _table(w, ("coef", "poly2d", "c2d"), (px + 1, py + 1))
    y_outer = w.rng.random() < 0.4  # rows of the table run in y: Horner in x inside
    outer, inner = (y, x) if y_outer else (x, y)
    slope = w.rng.random() < 0.35
    both = slope and w.rng.random() < 0.4  # the gradient: the inner variable's derivative as well
    val = w.declare(w.fresh("val"), ZERO, float((px + 1) * (py + 1)), None)
    dval = w.declare(w.fresh("dval"), ZERO, float(px * (px + 1) * (py + 1)), None) if slope else None
    dinner = w.declare(w.fresh("dval_in"), ZERO, float(py * (px + 1) * (py + 1) + px * (px + 1) * (py + 1)), None) \
        if both else None
    a, b, row = _temp(w, "a"), _temp(w, "b"), _temp(w, "row")
    rows, cols = (_extent(w, coef, axis, hints) for axis, hints in ((0, ("n_rows", "deg_x")), (1, ("n_cols", "deg_y"))))
    if y_outer:
        rows, cols = cols, rows
    if not slope and w.rng.random() < 0.3:
        # term by term instead of Horner: running powers of both variables, each coefficient times
        # its monomial (the table stored lowest degree first: entry [a, b] multiplies x^a y^b)
        _monomial_sum(w, coef, val.src, outer.src, inner.src, rows, cols, y_outer)
        _output(w, w.rng.choice(["surface", "poly_out", "p_xy"]), val)
        w.feature("coefficients stored lowest degree first")
        w.feature("tensor-product polynomial (sum of monomials, running powers)")
        return
    # the table's order: highest degree first (Horner walks it forwards), or lowest first, as
    # numpy's polyval2d stores it (Horner walks it backwards)
    lowest_first = w.rng.random() < 0.4
    if lowest_first:
        rows, cols = (f"{int(n) - 1}, -1, -1" if n.isdigit() else f"{n} - 1, -1, -1" for n in (rows, cols))
        w.feature("coefficients stored lowest degree first")
    drow = _temp(w, "drow") if both else None
    with w.block(f"for {a} in range({rows}):"):
        w.emit(f"{row} = float(0.0)")
        if both:
            w.emit(f"{drow} = float(0.0)")
        with w.block(f"for {b} in range({cols}):"):
            entry = f"{coef}[{b}, {a}]" if y_outer else f"{coef}[{a}, {b}]"
            if both:
                w.emit(f"{drow} = {drow} * {inner.src} + {row}")
            w.emit(f"{row} = {row} * {inner.src} + {entry}")
        if slope:
            w.emit(f"{dval.src} = {dval.src} * {outer.src} + {val.src}")
        if both:
            w.emit(f"{dinner.src} = {dinner.src} * {outer.src} + {drow}")
        w.emit(f"{val.src} = {val.src} * {outer.src} + {row}")
    _output(w, w.rng.choice(["surface", "poly_out", "p_xy"]), val)
    if slope:
        _output(w, f"d{'y' if y_outer else 'x'}_out", dval)
    if both:
        _output(w, f"d{'x' if y_outer else 'y'}_out", dinner)
        w.feature("gradient (both partial derivatives)")
    w.feature("tensor-product polynomial (nested Horner)" + (" with a partial derivative" if slope else ""))


def _monomial_sum(w: KernelWriter, coef: str, val: str, outer: str, inner: str, rows: str, cols: str,
                  y_outer: bool) -> None:
    """val = sum_ab coef[a, b] outer^a inner^b with the powers kept as running products."""
    a, b, po, pi = _temp(w, "a"), _temp(w, "b"), _temp(w, "pow_out"), _temp(w, "pow_in")
    w.emit(f"{po} = float(1.0)")
    with w.block(f"for {a} in range({rows}):"):
        w.emit(f"{pi} = float(1.0)")
        with w.block(f"for {b} in range({cols}):"):
            entry = f"{coef}[{b}, {a}]" if y_outer else f"{coef}[{a}, {b}]"
            _add(w, val, f"{entry} * {po} * {pi}")
            w.emit(f"{pi} = {pi} * {inner}")
        w.emit(f"{po} = {po} * {outer}")


def chain_energy(w: KernelWriter) -> None:
    """The pair energy of a chain of beads, each pair once (a triangular loop `range(a + 1, m)`):
    positions on a line or in 3-D, a Coulomb, soft Gaussian, spring or Lennard-Jones law, optionally
    cut off beyond a radius. Positions on a 1/32 grid keep each squared distance exact, so the cutoff
    test takes one branch on every backend."""
    beads = w.rng.choice([4, 5, 6, 8])
    spatial = w.rng.random() < 0.4
    pos = w.add_array(w.rng.choice(["beads", "chain", "positions"]), "vec3" if spatial else "float32", "input",
                      shape=(w.dim[0], beads), low=-2.0, high=2.0, grid_bits=5)
    t = w.tid_names[0]
    energy = w.declare(w.fresh("energy"), ZERO, float(beads * beads * 10), None)
    a, b, r, r2, d = _temp(w, "a"), _temp(w, "b"), _temp(w, "r"), _temp(w, "r2"), _temp(w, "d")
    law = w.rng.choice(["coulomb", "spring", "soft", "lennard-jones"])
    soft = fmt_float(w.rng.choice([0.25, 0.5]))
    cutoff = w.rng.choice([None, None, 1.5, 2.0])
    bound = _extent(w, pos, 1, ("n_beads", "chain_len"))
    # the law's constants passed by value, as a force field's parameters are (half the time)
    params = w.rng.random() < 0.5 and law in ("spring", "lennard-jones")
    if params and law == "spring":
        k_s = w.add_scalar(w.rng.choice(["k_spring", "stiffness"]), "float32", w.rng.choice([0.5, 1.0, 2.0])).src
        rest = w.add_scalar(w.rng.choice(["rest_length", "l0"]), "float32", w.rng.choice([0.5, 1.0])).src
    elif params:
        eps_lj = w.add_scalar(w.rng.choice(["epsilon", "eps_lj", "well_depth"]), "float32", w.rng.choice([0.5, 1.0])).src
        sigma = w.add_scalar(w.rng.choice(["sigma", "sigma_lj"]), "float32", w.rng.choice([0.5, 0.75])).src
    # the closest pair's distance beside the energy (how near the chain comes to overlapping)
    closest = w.declare(w.fresh("r2_min"), Expr("1.0e30", "float32", 1.0e30, None, lit=True), 64.0, None) \
        if w.rng.random() < 0.3 else None
    with w.block(f"for {a} in range({bound}):"):
        with w.block(f"for {b} in range({a} + 1, {bound}):"):
            if spatial:
                w.emit(f"{d} = {pos}[{t}, {a}] - {pos}[{t}, {b}]")
                w.emit(f"{r2} = wp.dot({d}, {d})")
                distance = f"wp.sqrt({r2})"
            else:
                w.emit(f"{d} = {pos}[{t}, {a}] - {pos}[{t}, {b}]")
                if cutoff or law == "lennard-jones" or closest:  # on a line the distance itself is |d|
                    w.emit(f"{r2} = {d} * {d}")
                distance = f"wp.abs({d})"
            if closest:
                w.emit(f"{closest.src} = wp.min({closest.src}, {r2})")
            scope = w.block(f"if {r2} < {fmt_float(cutoff * cutoff)}:") if cutoff else ExitStack()
            with scope:
                if law == "spring" and params:
                    w.emit(f"{r} = {distance} - {rest}")
                    _add(w, energy.src, f"0.5 * {k_s} * {r} * {r}")
                elif law == "spring":
                    w.emit(f"{r} = {distance} - {fmt_float(w.rng.choice([0.5, 1.0]))}")
                    _add(w, energy.src, f"0.5 * {r} * {r}")
                elif law == "lennard-jones" and params:  # (sigma / r)^6 with r^2 kept off zero
                    s2, s6 = _temp(w, "s2"), _temp(w, "s6")
                    w.emit(f"{s2} = {sigma} * {sigma} / ({r2} + {soft})")
                    w.emit(f"{s6} = {s2} * {s2} * {s2}")
                    _add(w, energy.src, f"4.0 * {eps_lj} * ({s6} * {s6} - {s6})")
                elif law == "lennard-jones":
                    inv6 = _temp(w, "inv6")
                    w.emit(f"{inv6} = 1.0 / (({r2} + {soft}) * ({r2} + {soft}) * ({r2} + {soft}))")
                    _add(w, energy.src, f"4.0 * ({inv6} * {inv6} - {inv6})")
                else:
                    w.emit(f"{r} = {distance} + {soft}")
                    _add(w, energy.src, f"1.0 / {r}" if law == "coulomb" else f"wp.exp(-{r} * {r})")
    _output(w, w.rng.choice(["energy_out", "potential", "e_pair"]), energy)
    if closest:
        w.note_varying(closest.src, pos)
        _output(w, w.rng.choice(["min_dist", "closest_pair", "min_sep"]),
                Expr(f"wp.sqrt({closest.src})", "float32", 8.0, None, atom=False))
        w.feature("closest pair distance")
    w.feature(f"pair energy over a chain ({law}{', cut off' if cutoff else ''}; triangular loop)")
    if params:
        w.feature("force-field constants as parameters")


def cell_quadrature(w: KernelWriter) -> None:
    """The integral of a function over the thread's cell by the midpoint or trapezoid rule, on an
    m x m (or m x m x m) grid of points."""
    dims = 3 if w.rng.random() < 0.3 else 2
    m = w.rng.choice([2, 3, 4] if dims == 3 else [3, 4, 6, 8])
    if w.rng.random() < 0.5:  # the cell's corner as one vector per thread
        corner = w.load(w.add_array(w.rng.choice(["corner", "cell_origin", "lower"]), f"vec{dims}", "input",
                                    low=-2.0, high=2.0))
        origin = [Expr(f"{corner.src}[{k}]", "float32", 2.0, 10) for k in range(dims)]
        w.feature(f"cell corner as a vec{dims}")
    else:
        origin = [w.load(w.add_array(h, "float32", "input", low=-2.0, high=2.0))
                  for h in ("x0", "y0", "z0")[:dims]]
    spacing = w.rng.choice([0.03125, 0.0625, 0.125])  # a power of two: the points are exact
    # the spacing as the caller's parameter (the cell size over the points per side), or a literal
    step = w.add_scalar(w.rng.choice(["h", "dx", "spacing"]), "float32", spacing).src if w.rng.random() < 0.35 \
        else fmt_float(spacing)
    rule = w.rng.choice(["midpoint", "trapezoid", "Simpson's"])
    if rule == "Simpson's" and m % 2:  # Simpson's rule pairs the intervals
        m += 1
    total = w.declare(w.fresh("integral"), ZERO, 1.0, None)
    idx = [_temp(w, v) for v in ("a", "b", "c")[:dims]]
    pts = [_temp(w, v) for v in ("px", "py", "pz")[:dims]]
    func = w.rng.choice(["gaussian", "wave", "lorentz"] + (["moment"] if dims == 2 else []))
    trips = m if rule == "midpoint" else m + 1
    # a point's weight is the product of one factor per axis, each computed in its own loop: the
    # trapezoid's 1/2 at the ends, Simpson's 1, 4, 2, 4, ..., 4, 1 (over 3 each, applied at the end)
    weights = [_temp(w, f"w{v}") for v in ("a", "b", "c")[:dims]] if rule != "midpoint" else []
    with ExitStack() as nest:
        for axis, (ix, pt, o) in enumerate(zip(idx, pts, origin)):
            nest.enter_context(w.block(f"for {ix} in range({trips}):"))
            offset = f"(float({ix}) + 0.5)" if rule == "midpoint" else f"float({ix})"
            w.emit(f"{pt} = {o.src} + {offset} * {step}")
            if rule == "trapezoid":
                w.emit(f"{weights[axis]} = 0.5 if {ix} == 0 or {ix} == {m} else 1.0")
            elif rule == "Simpson's":
                w.emit(f"{weights[axis]} = 1.0 if {ix} == 0 or {ix} == {m} else (4.0 if {ix} % 2 == 1 else 2.0)")
        r2 = " + ".join(f"{p} * {p}" for p in pts)
        value = {"gaussian": f"wp.exp(-({r2}))", "lorentz": f"1.0 / (1.0 + {r2})",
                 "wave": " * ".join([f"wp.sin({pts[0]})"] + [f"wp.cos({p})" for p in pts[1:]]),
                 "moment": f"{pts[0]} * {pts[1]} * {pts[1]}"}[func]
        _add(w, total.src, " * ".join(weights + [_factor(value)]) if weights else value)
    scale = " * ".join([step] * dims) if step.isidentifier() else fmt_float(spacing ** dims)
    if rule == "Simpson's":
        scale = f"{scale} / {fmt_float(3.0 ** dims)}"
    _output(w, w.rng.choice(["integral_out", "cell_mass", "flux"]),
            Expr(f"{total.src} * {scale}", "float32", 1.0, None, atom=False))
    w.feature(f"{rule} rule over a {'cube' if dims == 3 else 'square'} cell ({dims} nested loops)")


def _extents(w: KernelWriter, array: str) -> tuple[str, str]:
    """An image's two extents, as `array.shape[k]` (mostly: the kernel then runs on any size) or as
    literals."""
    if w.rng.random() < 0.75:
        w.feature("bound from .shape")
        return f"{array}.shape[0]", f"{array}.shape[1]"
    w.fix_launch()  # a fixed image: benchmarked at its own size (cuda_production.bench.pinned_launch)
    return str(w.arg(array).shape[0]), str(w.arg(array).shape[1])


def _last(extent: str) -> str:
    """The last index along an extent: folded for a literal (`15`), `rows - 1` otherwise."""
    return str(int(extent) - 1) if extent.isdigit() else f"{extent} - 1"


def _wrapped(index: str, offset: str, extent: str) -> str:
    """`(i + offset + n) % n`, the periodic neighbour, with a literal shift folded into a literal extent
    (`(i + di + 63) % 64`, not `(i + di - 1 + 64) % 64`)."""
    if extent.isdigit() and " - " in offset:
        var, shift = offset.split(" - ")
        return f"({index} + {var} + {int(extent) - int(shift)}) % {extent}"
    return f"({index} + {offset} + {extent}) % {extent}"


def _offsets(var: str, radius: int, shifted: bool) -> tuple[str, str, str]:
    """A loop over the offsets -radius..radius: `range(-r, r + 1)`, or `range(2r + 1)` shifted back.
    Returns the header, the offset as an addend (`di` or `di - 1`) and the loop value at offset 0."""
    if not shifted:
        return f"for {var} in range(-{radius}, {radius + 1}):", var, "0"
    return f"for {var} in range({2 * radius + 1}):", f"{var} - {radius}", str(radius)


def name_of(op: str, dilate: bool) -> str:
    return {"taps": "2-D convolution", "gaussian": "Gaussian blur (normalised weights)", "box": "box blur",
            "sobel": "Sobel edge magnitude", "morphology": "dilation" if dilate else "erosion"}[op]


# Session 58, of neighbourhood filters (a stream of their own): a Sobel magnitude as |gx| + |gy|, the
# gradient's direction beside it, a window's max less its min.
SOBEL_L1_SHARE = 0.3
SOBEL_DIRECTION_SHARE = 0.3
MORPH_GRADIENT_SHARE = 0.3


def neighbourhood_filter(w: KernelWriter) -> None:
    """A filter over an image, one pixel per thread: weighted taps from a table, a Gaussian whose
    weights are computed and normalised, a box mean, a Sobel edge magnitude, or a dilation/erosion
    (max/min). The border is clamped, or guarded (only pixels inside count)."""
    i, j = w.tid_names[:2]
    img = w.add_array(w.rng.choice(["image", "img", "field", "src_img"]), "float32", "input", low=-1.0, high=1.0)
    op = w.rng.choice(["taps", "gaussian", "box", "sobel", "morphology", "variance"])
    extra = random.Random(w.seed ^ 0x50BE)  # session 58's variants, a stream of their own
    other = direction = None
    radius = 1 if op == "sobel" else w.rng.choice([1, 1, 2])
    side = 2 * radius + 1
    guarded = w.rng.random() < 0.4
    rows, cols = _extents(w, img)
    di, dj, ii, jj, v = (_temp(w, h) for h in ("di", "dj", "ii", "jj", "v"))
    inline_read = w.rng.random() < 0.35
    shifted = w.rng.random() < 0.4
    head_i, off_i, ci = _offsets(di, radius, shifted)
    head_j, off_j, cj = _offsets(dj, radius, shifted)
    kern = _table(w, ("kernel2d", "weights", "taps"), (side, side)) if op == "taps" else None
    if op == "sobel":
        gx = w.declare(w.fresh("gx"), ZERO, 4.0, None)
        gy = w.declare(w.fresh("gy"), ZERO, 4.0, None)
    elif op == "morphology":
        dilate = w.rng.random() < 0.5
        best = w.declare(w.fresh("peak" if dilate else "trough"), Expr("-1.0e30" if dilate else "1.0e30", "float32",
                                                                         1.0e30, None, lit=True), 1.0, 10)
        # the morphological gradient: the window's maximum less its minimum (an edge's contrast)
        other = (w.declare(w.fresh("trough" if dilate else "peak"), Expr("1.0e30" if dilate else "-1.0e30", "float32",
                                                                          1.0e30, None, lit=True), 1.0, 10)
                 if extra.random() < MORPH_GRADIENT_SHARE else None)
    else:
        acc = w.declare(w.fresh("acc"), ZERO, float(side * side), None)
    if op == "variance":  # the window's sum and sum of squares: its mean and variance follow
        acc_sq = w.declare(w.fresh("acc_sq"), ZERO, float(side * side), None)
    norm = None
    if op == "gaussian" or (op in ("box", "variance") and guarded):
        norm = w.declare(w.fresh("wsum" if op == "gaussian" else "count"), ZERO, float(side * side), None)
    sigma = w.add_scalar(w.rng.choice(["sigma", "radius_sigma"]), "float32", w.rng.choice([0.5, 1.0, 1.5, 2.0])).src \
        if op == "gaussian" else None
    with w.block(head_i):
        with w.block(head_j):
            if guarded:
                w.emit(f"{ii} = {i} + {off_i}")
                w.emit(f"{jj} = {j} + {off_j}")
                scope = w.block(f"if {ii} >= 0 and {ii} < {rows} and {jj} >= 0 and {jj} < {cols}:")
            else:
                w.emit(f"{ii} = wp.clamp({i} + {off_i}, 0, {_last(rows)})")
                w.emit(f"{jj} = wp.clamp({j} + {off_j}, 0, {_last(cols)})")
                scope = ExitStack()
            with scope:
                if op in ("taps", "box", "morphology") and inline_read:  # read where it is used, once
                    v = f"{img}[{ii}, {jj}]"
                else:
                    w.emit(f"{v} = {img}[{ii}, {jj}]")
                if op == "taps":
                    # the table's index is the loop value where the loop counts from 0
                    ti, tj = (d if o != d else f"{d} + {radius}" for d, o in ((di, off_i), (dj, off_j)))
                    _add(w, acc.src, f"{kern}[{ti}, {tj}] * {v}")
                elif op == "gaussian":
                    wt = _temp(w, "wt")
                    sq_i, sq_j = (f"({o}) * ({o})" if " " in o else f"{o} * {o}" for o in (off_i, off_j))
                    w.emit(f"{wt} = wp.exp(-float({sq_i} + {sq_j}) / (2.0 * {sigma} * {sigma}))")
                    _add(w, acc.src, f"{wt} * {v}")
                    _add(w, norm.src, wt)
                elif op in ("box", "variance"):
                    _add(w, acc.src, v)
                    if op == "variance":
                        _add(w, acc_sq.src, f"{v} * {v}")
                    if norm is not None:
                        _add(w, norm.src, "1.0")
                elif op == "sobel":
                    wt = _temp(w, "wt")
                    w.emit(f"{wt} = 2.0 if {di} == {ci} else 1.0")
                    _add(w, gx.src, f"float({off_j}) * {wt} * {v}")
                    w.emit(f"{wt} = 2.0 if {dj} == {cj} else 1.0")
                    _add(w, gy.src, f"float({off_i}) * {wt} * {v}")
                else:
                    w.emit(f"{best.src} = wp.{'max' if dilate else 'min'}({best.src}, {v})")
                    if other is not None:
                        w.emit(f"{other.src} = wp.{'min' if dilate else 'max'}({other.src}, {v})")
    if op == "variance":
        count = norm.src if norm is not None else fmt_float(float(side * side))
        mean = w.assign(Expr(f"{acc.src} / {count}", "float32", 1.0, None, atom=False), prefix="mean")
        var = w.assign(Expr(f"{acc_sq.src} / {count} - {mean.src} * {mean.src}", "float32", 1.0, None, atom=False),
                       prefix="var")
        for local in (acc.src, acc_sq.src):
            w.note_varying(local, img)
        std = w.rng.random() < 0.4
        _output(w, w.rng.choice(["local_mean", "mean_out"]), mean)
        _output(w, "local_std" if std else w.rng.choice(["local_var", "variance"]),
                Expr(f"wp.sqrt(wp.max({var.src}, 0.0))", "float32", 1.0, None) if std else var)
        w.feature("local mean and " + ("standard deviation" if std else "variance")
                  + (" (guarded border)" if guarded else " (clamped border)"))
        return
    if op == "taps":
        result = acc
    elif op in ("gaussian", "box") and norm is not None:
        result = Expr(f"{acc.src} / {norm.src}", "float32", 1.0, None, atom=False)
    elif op == "box":
        result = Expr(f"{acc.src} / {fmt_float(float(side * side))}", "float32", 1.0, None, atom=False)
    elif op == "sobel":
        if extra.random() < SOBEL_L1_SHARE:  # |gx| + |gy|: the cheap magnitude many edge detectors use
            result = Expr(f"wp.abs({gx.src}) + wp.abs({gy.src})", "float32", 8.0, None, atom=False)
            w.feature("L1 gradient magnitude")
        else:
            result = Expr(f"wp.sqrt({gx.src} * {gx.src} + {gy.src} * {gy.src})", "float32", 6.0, None, atom=False)
        if extra.random() < SOBEL_DIRECTION_SHARE:  # the edge's direction beside its strength (Canny's input)
            direction = Expr(f"wp.atan2({gy.src}, {gx.src})", "float32", 3.2, None)
    elif other is not None:
        peak, trough = (best, other) if dilate else (other, best)
        result = Expr(f"{peak.src} - {trough.src}", "float32", 2.0, None, atom=False)
    else:
        result = best
    for local in ("acc", "gx", "gy", "best"):
        if local in locals():
            w.note_varying(locals()[local].src, img)
    if op in ("gaussian", "box") and w.rng.random() < 0.3:  # unsharp masking: the pixel pushed away from its blur
        mean = w.assign(result, prefix="blur")
        centre = w.load(img)
        amount = w.add_scalar(w.rng.choice(["amount", "sharpen", "strength"]), "float32", w.rng.choice([0.5, 1.0, 1.5]))
        result = Expr(f"{centre.src} + {amount.src} * ({centre.src} - {mean.src})", "float32", 4.0, None, atom=False)
        _output(w, w.rng.choice(["sharpened", "sharp", "enhanced"]), result)
        w.feature("unsharp mask")
        w.feature(name_of(op, False) + (" (guarded border)" if guarded else " (clamped border)"))
        return
    name = name_of(op, op == "morphology" and dilate)
    hint = {"sobel": ["edges", "grad_mag"], "morphology": ["dilated" if op == "morphology" and dilate else "eroded"]}
    if op == "morphology" and other is not None:
        name, hint["morphology"] = "morphological gradient (dilation less erosion)", ["morph_grad", "contrast"]
    _output(w, w.rng.choice(hint.get(op, ["blurred", "filtered", "smoothed"])), result)
    if direction is not None:
        _output(w, extra.choice(["grad_dir", "edge_angle", "orientation"]), direction)
        w.feature("gradient direction (atan2)")
    w.feature(name + (" (guarded border)" if guarded else " (clamped border)"))


CELL_AGE_SHARE = 0.4  # life-like steps that also count each cell's age in generations
# Cellular-automaton rules: (births, survivals), as counts of live neighbours.
LIFE_RULES = {"Conway's Game of Life": ((3,), (2, 3)), "HighLife": ((3, 6), (2, 3)), "Seeds": ((2,), ())}


def _any_equal(var: str, values: tuple[int, ...]) -> str:
    return " or ".join(f"{var} == {v}" for v in values)


def game_of_life(w: KernelWriter) -> None:
    """One step of a life-like cellular automaton (Conway's, HighLife, Seeds): count the eight
    neighbours, the centre skipped (`continue`, a `!=` guard, or subtracted after), then the birth and
    survival rule. The grid wraps around (periodic) or its outside counts as dead."""
    i, j = w.tid_names[:2]
    cells = w.add_array(w.rng.choice(["cells", "board", "alive"]), "int32", "input", low=0, high=1, grid_bits=0)
    rule = w.rng.choice(list(LIFE_RULES))
    births, survivals = LIFE_RULES[rule]
    periodic = w.rng.random() < 0.5
    skip = w.rng.choice(["continue", "guard", "subtract"])
    rows, cols = _extents(w, cells)
    alive = w.declare(w.fresh("neighbours"), Expr("0", "int32", 0.0, 0, lit=True), 9.0, 0)
    di, dj, ii, jj = _temp(w, "di"), _temp(w, "dj"), _temp(w, "ii"), _temp(w, "jj")
    shifted = w.rng.random() < 0.4
    head_i, off_i, centre_i = _offsets(di, 1, shifted)
    head_j, off_j, centre_j = _offsets(dj, 1, shifted)
    with w.block(head_i):
        with w.block(head_j):
            guard = None
            if skip == "continue":
                with w.block(f"if {di} == {centre_i} and {dj} == {centre_j}:"):
                    w.emit("continue")
            elif skip == "guard":
                guard = f"{di} != {centre_i} or {dj} != {centre_j}"
            if periodic:
                w.emit(f"{ii} = {_wrapped(i, off_i, rows)}")
                w.emit(f"{jj} = {_wrapped(j, off_j, cols)}")
                inside = guard
            else:
                w.emit(f"{ii} = {i} + {off_i}")
                w.emit(f"{jj} = {j} + {off_j}")
                bounds = f"{ii} >= 0 and {ii} < {rows} and {jj} >= 0 and {jj} < {cols}"
                inside = bounds if guard is None else f"({guard}) and {bounds}"
            if inside is None:
                w.emit(f"{alive.src} += {cells}[{ii}, {jj}]")
            else:
                with w.block(f"if {inside}:"):
                    w.emit(f"{alive.src} += {cells}[{ii}, {jj}]")
    state = w.load(cells)
    if skip == "subtract":
        w.emit(f"{alive.src} -= {state.src}")
    w.note_varying(alive.src, cells)
    # a birth needs a dead cell unless every birth count is also a survival count (Conway's B3/S23)
    born = _any_equal(alive.src, births)
    if not set(births) <= set(survivals):
        born = f"{state.src} == 0 and ({born})" if len(births) > 1 else f"{state.src} == 0 and {born}"
    survives = f"{state.src} == 1 and ({_any_equal(alive.src, survivals)})" if survivals else None
    either = born if survives is None else f"({born}) or ({survives})"
    spelling = w.rng.choice(["if_elif", "one_if", "where"])
    if spelling == "where":
        nxt = Expr(f"wp.where({either}, 1, 0)", "int32", 1.0, 0, atom=False)
    else:
        nxt = w.declare(w.fresh("next_state"), Expr("0", "int32", 0.0, 0, lit=True), 1.0, 0)
        if spelling == "if_elif" and survives is not None:
            with w.block(f"if {survives}:"):
                w.emit(f"{nxt.src} = 1")
            dead_born = born if born.startswith(f"{state.src} == 0") else \
                f"{state.src} == 0 and " + (f"({born})" if " or " in born else born)
            with w.block(f"elif {dead_born}:"):
                w.emit(f"{nxt.src} = 1")
        else:
            with w.block(f"if {either}:"):
                w.emit(f"{nxt.src} = 1")
        w.note_varying(nxt.src, cells)
    aged = w.rng.random() < CELL_AGE_SHARE
    if aged and not nxt.atom:
        nxt = w.assign(nxt, "next_state")  # read twice: by the board and by the age
    # the next generation replaces the board: never added to or blended with it
    w.state_outputs.add(_output(w, w.rng.choice(["next_cells", "new_board", "cells_out"]), nxt, "int32"))
    if aged:
        # how many generations each cell has lived (what viewers of life-like automata colour cells
        # by): one more where it lives on or is born, back to 0 where it dies
        age = w.add_array(w.rng.choice(["age", "cell_age", "generations"]), "int32", "inout", low=0, high=16,
                          grid_bits=0)
        w.unused.remove(age)
        w.store(age, Expr(f"wp.where({nxt.src} == 1, {age}[{i}, {j}] + 1, 0)", "int32", 17.0, 0, atom=False))
        w.state_outputs.add(age)
        w.feature("cell ages counted")
    if w.rng.random() < 0.3:
        _output(w, w.rng.choice(["counts", "live_neighbours"]), alive, "int32")
    w.feature(f"{rule} step ({'periodic' if periodic else 'guarded'} neighbourhood)")


# One entry per loop nest: the form and the launch it needs (1: a row per thread, 2: a pixel per thread).
NESTED_FORMS: dict[str, tuple[Callable[[KernelWriter], None], int]] = {
    "dense layer": (dense_layer, 1),
    "row matmul": (row_matmul, 1),
    "nearest centroid": (nearest_centroid, 1),
    "attention": (attention, 1),
    "tensor polynomial": (tensor_polynomial, 1),
    "chain energy": (chain_energy, 1),
    "cell quadrature": (cell_quadrature, 1),
    "neighbourhood filter": (neighbourhood_filter, 2),
    "Game of Life": (game_of_life, 2),
}


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    form = rng.choice(list(NESTED_FORMS))
    build, ndim = NESTED_FORMS[form]
    if ndim == 2:
        dim = (rng.choice([16, 24, 32, 64]), rng.choice([16, 32, 48, 64]))
    else:
        dim = (rng.choice([64, 128, 256, 512]),)
    w = KernelWriter(rng, name, "nested_loop", seed, dim)
    if ndim == 1 and rng.random() < 0.3:
        early_return(w)  # a padded launch: threads past the row count return at once
    build(w)
    return w.finish("Nested-loop kernel")
