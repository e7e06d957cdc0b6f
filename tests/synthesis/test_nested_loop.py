"""Each loop nest of nested_loop computes what its name says.

A form is built into a kernel of its own, and the kernel's Python body is run, thread by thread, over
inputs drawn on the arrays' own grids (numpy arrays stand in for Warp's). The results are checked
against the computation the form's name promises, done here independently with numpy: a dense layer,
a matrix product, k-means' assignment, softmax attention, a 2-D polynomial, a chain's pair energy, a
cell's integral, an image filter, a cellular automaton's step.
"""
from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda_production.bench import bench_launch_dim, pinned_launch
from cuda_production.host_check import run_on_host
from synthesis.categories import generate
from synthesis.categories.nested_loop import LIFE_RULES, NESTED_FORMS
from synthesis.exprgen import KernelWriter
from tests.cuda_production.harness import sanitized_bench, write_spec_sample
from tests.synthesis.python_run import draw_inputs, run

SEEDS = st.integers(0, 2**32 - 1)
PROPERTY = settings(max_examples=12, deadline=None, derandomize=True)
ROWS = 24  # threads of a 1-D form
GRID = (9, 7)  # pixels of a 2-D form


def build(form: str, seed: int):
    build_form, ndim = NESTED_FORMS[form]
    w = KernelWriter(random.Random(seed), "k", "nested_loop", seed, (ROWS,) if ndim == 1 else GRID)
    w.output_update_share = 0.0  # the form's values as its formula gives them, not updated in place
    build_form(w)
    return w.finish("test")


def named(spec, *hints: str) -> str:
    """The argument whose name is one of `hints` (the form names each array for its role)."""
    return next(a.name for a in spec.args if a.name in hints)


def has(spec, *hints: str) -> bool:
    return any(a.name in hints for a in spec.args)


def scalar(spec, *hints: str):
    return next((a.value for a in spec.args if a.name in hints and a.role == "scalar"), None)


@PROPERTY
@given(SEEDS)
def test_a_dense_layer_is_the_activation_of_the_affine_map(seed):
    spec = build("dense layer", seed)
    inputs = draw_inputs(spec, seed)
    x, weights = inputs[named(spec, "features", "feats", "x_in", "inputs")], inputs[named(spec, "weights", "w_hidden", "W")]
    pre = x @ weights.T + (inputs[named(spec, "bias", "b_hidden")] if has(spec, "bias", "b_hidden") else 0.0)
    acts = {"relu": [np.maximum(pre, 0.0)], "tanh": [np.tanh(pre)], "sigmoid": [1.0 / (1.0 + np.exp(-pre))],
            "linear": [pre], "leaky relu": [np.maximum(pre, slope * pre) for slope in (0.01, 0.1, 0.2)],
            "softplus": [np.log1p(np.exp(pre))]}
    act = next(k for k in acts if f"dense layer ({k})" in spec.description)
    got = run(spec, inputs)
    if has(spec, "score", "y_out", "logit"):
        wants = [h @ inputs[named(spec, "w_out", "readout", "v")] for h in acts[act]]
        out = got[named(spec, "score", "y_out", "logit")]
    else:
        wants, out = acts[act], got[named(spec, "hidden", "h_out", "activations")]
    assert any(np.allclose(out, want, atol=1e-12, rtol=1e-12) for want in wants)


@PROPERTY
@given(SEEDS)
def test_a_row_matmul_is_the_matrix_product_or_gemm(seed):
    check_row_matmul(seed)


def check_row_matmul(seed: int) -> None:
    spec = build("row matmul", seed)
    inputs = draw_inputs(spec, seed)
    a, b = inputs[named(spec, "a_rows", "lhs", "A")], inputs[named(spec, "rhs", "B", "basis")]
    product = a @ (b.T if "transposed operand" in spec.description else b)
    if "bias per column" in spec.description:
        product = product + inputs[named(spec, "bias", "col_bias", "offset")]
    out = named(spec, "product", "C", "projected")
    if "GEMM" in spec.description:
        product = scalar(spec, "alpha") * product + scalar(spec, "beta") * inputs[out]
    got = run(spec, inputs)
    np.testing.assert_allclose(got[out], product, atol=1e-12)
    if has(spec, "row_norm", "norms", "magnitude"):  # each product row's Euclidean length
        np.testing.assert_allclose(got[named(spec, "row_norm", "norms", "magnitude")],
                                   np.linalg.norm(product, axis=1), atol=1e-9)


@PROPERTY
@given(SEEDS)
def test_nearest_centroid_assigns_each_point_to_its_closest_centroid_and_counts_the_clusters(seed):
    spec = build("nearest centroid", seed)
    inputs = draw_inputs(spec, seed)
    pts, cent = inputs[named(spec, "points", "samples", "coords")], inputs[named(spec, "centroids", "centers", "means")]
    diff = pts[:, None, :] - cent[None, :, :]
    dist = np.abs(diff).sum(-1) if "Manhattan" in spec.description else (diff ** 2).sum(-1)
    labels = dist.argmin(1)  # the first of equal distances, as `<` keeps it
    got = run(spec, inputs)
    np.testing.assert_array_equal(got[named(spec, "assignment", "labels", "cluster")], labels)
    assert len(set(labels)) > 1
    if has(spec, "distance", "min_dist"):
        d = got[named(spec, "distance", "min_dist")]
        best = dist.min(1)
        assert np.allclose(d, best, atol=1e-12) or np.allclose(d, np.sqrt(best), atol=1e-12)
    if has(spec, "cluster_sizes", "counts"):
        sizes = got[named(spec, "cluster_sizes", "counts")]
        np.testing.assert_array_equal(sizes, np.bincount(labels, minlength=len(sizes)))
    if has(spec, "margin", "gap"):  # the runner-up's distance less the nearest one's
        ordered = np.sort(dist, axis=1)
        np.testing.assert_allclose(got[named(spec, "margin", "gap")], ordered[:, 1] - ordered[:, 0], atol=1e-12)
    if has(spec, "coord_sums", "new_centroids", "centroid_acc"):  # the k-means update step's sums
        sums = got[named(spec, "coord_sums", "new_centroids", "centroid_acc")]
        want = np.zeros_like(sums)
        np.add.at(want, labels, pts)
        np.testing.assert_allclose(sums, want, atol=1e-12)


@PROPERTY
@given(SEEDS)
def test_attention_is_the_softmax_weighted_mean_of_the_values(seed):
    check_attention(seed)


def check_attention(seed: int) -> None:
    spec = build("attention", seed)
    inputs = draw_inputs(spec, seed)
    q, k = inputs[named(spec, "query", "q_rows", "queries")], inputs[named(spec, "keys", "k_rows")]
    v = inputs[named(spec, "values", "v_rows")]
    scores = q @ k.T / math.sqrt(q.shape[1])
    positions = np.arange(q.shape[0]) % k.shape[0]  # a causal query t is at position t % n_keys
    if has(spec, "key_bias", "pos_bias", "score_bias"):  # a learned bias per key position
        scores = scores + inputs[named(spec, "key_bias", "pos_bias", "score_bias")][None, :]
    if "ALiBi" in spec.description:  # the distance back to the query's position, times the slope
        slope = scalar(spec, "alibi_slope", "slope", "m_head")
        scores = scores - slope * (positions[:, None] - np.arange(k.shape[0])[None, :])
    if has(spec, "valid_len", "seq_lens", "n_valid"):  # each query sees only its first keys
        lengths = inputs[named(spec, "valid_len", "seq_lens", "n_valid")]
        scores = np.where(np.arange(k.shape[0])[None, :] < lengths[:, None], scores, -np.inf)
    elif "causal" in spec.description:  # query t is at position t % n_keys of its sequence
        lengths = np.arange(q.shape[0]) % k.shape[0] + 1
        scores = np.where(np.arange(k.shape[0])[None, :] < lengths[:, None], scores, -np.inf)
    p = np.exp(scores - scores.max(1, keepdims=True))
    want = (p / p.sum(1, keepdims=True)) @ v
    np.testing.assert_allclose(run(spec, inputs)[named(spec, "attended", "context", "ctx_out")], want, atol=1e-6)


@pytest.mark.parametrize("feature", ["a learned bias per key position", "ALiBi distance penalty", "wp.vec2",
                                     "wp.vec4"])
def test_attention_variants_are_the_softmax_weighted_mean_with_their_bias(feature):
    seed = next(s for s in range(2000) if feature in (lambda spec: spec.description + spec.source)(build("attention", s)))
    check_attention(seed)


def test_a_causal_mask_skips_the_later_keys():
    seed = first_seed_with("attention", "causal mask")
    check_attention(seed)


@PROPERTY
@given(SEEDS)
def test_a_tensor_polynomial_evaluates_the_coefficient_table_and_its_derivative(seed):
    check_tensor_polynomial(build("tensor polynomial", seed), seed)


def first_seed_with(form: str, feature: str) -> int:
    """The first seed whose kernel of `form` has `feature` (a variant the property tests may not draw)."""
    return next(seed for seed in range(400) if feature in build(form, seed).description)


def test_the_monomial_variant_of_the_polynomial_evaluates_the_same_table():
    seed = first_seed_with("tensor polynomial", "sum of monomials")
    check_tensor_polynomial(build("tensor polynomial", seed), seed)


def check_tensor_polynomial(spec, seed: int) -> None:
    inputs = draw_inputs(spec, seed)
    coef = inputs[named(spec, "coef", "poly2d", "c2d")]
    if has(spec, "uv", "pts", "xy"):
        p = inputs[named(spec, "uv", "pts", "xy")]
        x, y = p[:, 0], p[:, 1]
    else:
        x, y = inputs[named(spec, "x", "u", "s")], inputs[named(spec, "y", "v", "t_in")]
    scale = scalar(spec, "inv_scale", "inv_extent", "domain_scale")
    if scale is not None:  # evaluated at the point in the fit's scaled coordinates
        x, y = x * scale, y * scale
    got = run(spec, inputs)
    rows, cols = coef.shape  # row a, column b: the coefficient of x^(rows-1-a) y^(cols-1-b)
    terms = [(coef[a, b], rows - 1 - a, cols - 1 - b) for a in range(rows) for b in range(cols)]
    if "lowest degree first" in spec.description:  # row a, column b: the coefficient of x^a y^b
        terms = [(coef[a, b], a, b) for a in range(rows) for b in range(cols)]
    value = sum(c * x ** i * y ** j for c, i, j in terms)
    np.testing.assert_allclose(got[named(spec, "surface", "poly_out", "p_xy")], value, atol=1e-9)
    if has(spec, "dx_out"):
        slope = sum(c * i * x ** max(i - 1, 0) * y ** j for c, i, j in terms)
        np.testing.assert_allclose(got["dx_out"], slope, atol=1e-9)
    if has(spec, "dy_out"):
        slope = sum(c * j * x ** i * y ** max(j - 1, 0) for c, i, j in terms)
        np.testing.assert_allclose(got["dy_out"], slope, atol=1e-9)
    assert rows > 2 or cols > 2


def _pair_law(law: str, r: np.ndarray, soft: float, rest: float, k: float = 1.0, eps: float = 1.0,
              sigma: float = 1.0) -> np.ndarray:
    s6 = (sigma * sigma / (r * r + soft)) ** 3
    return {"coulomb": 1.0 / (r + soft), "soft": np.exp(-(r + soft) ** 2), "spring": 0.5 * k * (r - rest) ** 2,
            "lennard-jones": 4.0 * eps * (s6 * s6 - s6)}[law]


@PROPERTY
@given(SEEDS)
def test_chain_energy_sums_the_pair_law_over_each_pair_once(seed):
    check_chain_energy(seed)


def check_chain_energy(seed: int) -> None:
    spec = build("chain energy", seed)
    inputs = draw_inputs(spec, seed)
    pos = inputs[named(spec, "beads", "chain", "positions")]
    if pos.ndim == 2:
        pos = pos[..., None]
    m = pos.shape[1]
    r = np.stack([np.linalg.norm(pos[:, a] - pos[:, b], axis=-1) for a in range(m) for b in range(a + 1, m)], 1)
    law = next(k for k in ("coulomb", "soft", "spring", "lennard-jones") if f"({k}" in spec.description)
    got = run(spec, inputs)[named(spec, "energy_out", "potential", "e_pair")]
    constants = {"k": scalar(spec, "k_spring", "stiffness"), "eps": scalar(spec, "epsilon", "eps_lj", "well_depth"),
                 "sigma": scalar(spec, "sigma", "sigma_lj")} if "constants as parameters" in spec.description else {}
    constants = {k: v for k, v in constants.items() if v is not None}
    rests = (0.5, 1.0) if scalar(spec, "rest_length", "l0") is None else (scalar(spec, "rest_length", "l0"),)
    fits = [np.allclose(got, np.where(r < cut, _pair_law(law, r, soft, rest, **constants), 0.0).sum(1), atol=1e-9)
            for soft in (0.25, 0.5) for rest in rests for cut in ((1.5, 2.0) if "cut off" in spec.description else (np.inf,))]
    assert any(fits)
    if has(spec, "min_dist", "closest_pair", "min_sep"):  # the nearest two beads' distance
        np.testing.assert_allclose(run(spec, inputs)[named(spec, "min_dist", "closest_pair", "min_sep")], r.min(1),
                                   atol=1e-9)


def test_the_closest_pair_distance_is_the_smallest_bead_separation():
    seed = first_seed_with("chain energy", "closest pair")
    check_chain_energy(seed)


def test_the_norm_of_each_product_row_is_its_length():
    seed = first_seed_with("row matmul", "norm of each product row")
    check_row_matmul(seed)


def test_the_i_k_j_order_accumulates_the_same_product_into_the_output_row():
    """Each element of A's row scales a row of B into C's row, which starts at the bias or zero."""
    seed = first_seed_with("row matmul", "i-k-j order")
    check_row_matmul(seed)
    assert "+= a_ik *" in build("row matmul", seed).source


def _integral(func: str, lo: np.ndarray, size: float, dims: int, points: int = 400) -> np.ndarray:
    """The integral of `func` over the cells [lo, lo + size]^dims by a fine midpoint rule."""
    t = (np.arange(points) + 0.5) / points * size
    grids = np.meshgrid(*([t] * dims), indexing="ij")
    total = []
    for corner in lo:
        p = [g + c for g, c in zip(grids, corner)]
        f = {"gaussian": lambda: np.exp(-sum(q * q for q in p)), "lorentz": lambda: 1.0 / (1.0 + sum(q * q for q in p)),
             "wave": lambda: np.sin(p[0]) * np.prod([np.cos(q) for q in p[1:]], axis=0),
             "moment": lambda: p[0] * p[1] * p[1]}[func]()
        total.append(f.mean() * size ** dims)
    return np.array(total)


@PROPERTY
@given(SEEDS)
def test_cell_quadrature_approximates_the_integral_over_the_cell(seed):
    spec = build("cell quadrature", seed)
    inputs = draw_inputs(spec, seed)
    origins = [inputs[a.name] for a in spec.args if a.role == "input"]  # x0, y0(, z0) or one corner vector
    corners = (origins[0] if len(origins) == 1 else np.stack(origins, 1))[:6]
    dims = corners.shape[1]
    got = run(spec, inputs)[next(a.name for a in spec.args if a.role == "output")][:6]
    # the cell's side is the trip count times a power-of-two spacing; the function is one of four:
    # the sum must approximate one such integral within the rule's error, and no other reading
    fits = []
    for m in (2, 3, 4, 6, 8):
        for spacing in (0.03125, 0.0625, 0.125):
            for func in ("gaussian", "lorentz", "wave", "moment")[: 4 if dims == 2 else 3]:
                want = _integral(func, corners, m * spacing, dims, points=400 if dims == 2 else 60)
                scale = (m * spacing) ** dims
                fits.append(np.allclose(got, want, atol=0.01 * scale, rtol=0))
    assert sum(fits) >= 1 and not np.allclose(got, 0.0)


def _neighbourhood(img: np.ndarray, radius: int, clamped: bool):
    """Per pixel, (offset (di, dj), value) for every pixel of its window that counts: clamped to the
    image, or only those inside it."""
    h, w = img.shape
    for i in range(h):
        for j in range(w):
            window = []
            for di in range(-radius, radius + 1):
                for dj in range(-radius, radius + 1):
                    ii, jj = i + di, j + dj
                    if clamped:
                        window.append(((di, dj), img[min(max(ii, 0), h - 1), min(max(jj, 0), w - 1)]))
                    elif 0 <= ii < h and 0 <= jj < w:
                        window.append(((di, dj), img[ii, jj]))
            yield (i, j), window


@PROPERTY
@given(SEEDS)
def test_a_neighbourhood_filter_applies_its_named_filter_at_every_pixel(seed):
    check_filter(build("neighbourhood filter", seed), seed)


def test_local_statistics_are_the_mean_and_spread_of_each_window():
    seeds = [s for s in range(800) if "local mean" in build("neighbourhood filter", s).description][:4]
    assert len(seeds) == 4
    for seed in seeds:
        check_filter(build("neighbourhood filter", seed), seed)


@pytest.mark.parametrize("feature", ["L1 gradient magnitude", "gradient direction (atan2)", "morphological gradient"])
def test_edge_variants_are_what_they_say(feature):
    """|gx| + |gy|; atan2(gy, gx) beside the magnitude; the window's maximum less its minimum."""
    seed = next(s for s in range(1500) if feature in build("neighbourhood filter", s).description)
    check_filter(build("neighbourhood filter", seed), seed)


def test_an_unsharp_mask_pushes_each_pixel_away_from_its_blur():
    seed = next(s for s in range(500) if "unsharp mask" in build("neighbourhood filter", s).description)
    check_filter(build("neighbourhood filter", seed), seed)


def check_filter(spec, seed: int) -> None:
    inputs = draw_inputs(spec, seed)
    img = inputs[named(spec, "image", "img", "field", "src_img")]
    got = run(spec, inputs)
    out = got[next(a.name for a in spec.args if a.role == "output")]
    clamped = "clamped border" in spec.description
    d = spec.description
    if "local mean" in d:  # the window's mean, and its variance (E[v^2] - mean^2) or standard deviation
        second = got[[a.name for a in spec.args if a.role == "output"][1]]
        fits = []
        for radius in (1, 2):
            windows = [(i, j, np.array([v for _, v in window])) for (i, j), window in _neighbourhood(img, radius, clamped)]
            mean, var = np.zeros(GRID), np.zeros(GRID)
            for i, j, values in windows:
                mean[i, j], var[i, j] = values.mean(), values.var()
            spread = np.sqrt(var) if "standard deviation" in d else var
            fits.append(np.allclose(out, mean, atol=1e-9) and np.allclose(second, spread, atol=1e-6))
        assert any(fits) and np.ptp(second) > 0
        return
    candidates, directions_ok = [], True
    for radius in (1, 2):
        for sigma2 in [2.0 * scalar(spec, "sigma", "radius_sigma") ** 2] if "Gaussian" in spec.description else [None]:
            want = np.zeros(GRID)
            for (i, j), window in _neighbourhood(img, radius, clamped):
                values = np.array([v for _, v in window])
                if "2-D convolution" in d:
                    taps = inputs[named(spec, "kernel2d", "weights", "taps")]
                    want[i, j] = sum(taps[di + radius, dj + radius] * v for (di, dj), v in window) \
                        if taps.shape[0] == 2 * radius + 1 else np.nan
                elif "Gaussian" in d:
                    wts = np.array([math.exp(-(di * di + dj * dj) / sigma2) for (di, dj), _ in window])
                    want[i, j] = (wts * values).sum() / wts.sum()
                elif "box blur" in d:
                    want[i, j] = values.mean()
                elif "Sobel" in d:
                    gx = sum(dj * (2.0 if di == 0 else 1.0) * v for (di, dj), v in window)
                    gy = sum(di * (2.0 if dj == 0 else 1.0) * v for (di, dj), v in window)
                    want[i, j] = abs(gx) + abs(gy) if "L1 gradient" in d else math.hypot(gx, gy)
                    if "gradient direction" in d:
                        angle = got[named(spec, "grad_dir", "edge_angle", "orientation")][i, j]
                        directions_ok &= radius != 1 or math.isclose(angle, math.atan2(gy, gx), abs_tol=1e-9)
                elif "morphological gradient" in d:
                    want[i, j] = values.max() - values.min()
                else:
                    want[i, j] = values.max() if "dilation" in d else values.min()
            if "unsharp mask" in d:  # the pixel pushed away from its blur by `amount`
                amount = scalar(spec, "amount", "sharpen", "strength")
                want = img + amount * (img - want)
            candidates.append(np.allclose(out, want, atol=1e-9))
    assert any(candidates) and np.ptp(out) > 0 and directions_ok


@PROPERTY
@given(SEEDS)
def test_a_life_step_applies_the_birth_and_survival_rule_to_the_eight_neighbours(seed):
    spec = build("Game of Life", seed)
    inputs = draw_inputs(spec, seed)
    cells = inputs[named(spec, "cells", "board", "alive")]
    got = run(spec, inputs)
    rule = next(r for r in LIFE_RULES if r in spec.description)
    births, survivals = LIFE_RULES[rule]
    h, w = cells.shape
    periodic = "periodic" in spec.description
    count = np.zeros_like(cells)
    for di in (-1, 0, 1):
        for dj in (-1, 0, 1):
            if (di, dj) != (0, 0):
                if periodic:
                    count += np.roll(cells, (-di, -dj), axis=(0, 1))
                else:
                    padded = np.pad(cells, 1)
                    count += padded[1 + di:1 + di + h, 1 + dj:1 + dj + w]
    want = np.where(cells == 1, np.isin(count, survivals), np.isin(count, births)).astype(int)
    np.testing.assert_array_equal(got[named(spec, "next_cells", "new_board", "cells_out")], want)
    if has(spec, "counts", "live_neighbours"):
        np.testing.assert_array_equal(got[named(spec, "counts", "live_neighbours")], count)
    if has(spec, "age", "cell_age", "generations"):  # a generation older where the cell lives, else 0
        age = named(spec, "age", "cell_age", "generations")
        np.testing.assert_array_equal(got[age], np.where(want == 1, inputs[age] + 1, 0))


def test_some_life_steps_count_each_cells_age():
    ages = [s for s in (build("Game of Life", seed) for seed in range(40)) if has(s, "age", "cell_age", "generations")]
    assert 5 <= len(ages) <= 30
    assert all(a.role == "inout" for s in ages for a in s.args if a.name in ("age", "cell_age", "generations"))


@PROPERTY
@given(SEEDS, st.sampled_from(["neighbourhood filter", "Game of Life"]))
def test_an_image_whose_code_holds_its_extents_keeps_its_size_and_its_launch(seed, form):
    """Extents written as literals (`ii < 9`, `% 7`) fix the image: it keeps its size at bench size
    (ArgSpec.keeps_size), and so does the launch shaped like it (bench.pinned_launch); extents read
    from `.shape` leave both free to grow."""
    spec = build(form, seed)
    literal = "bound from .shape" not in spec.description
    shaped = [a for a in spec.args if a.is_array and a.shape == spec.dim]
    assert len(shaped) >= 2  # the image read and an image written
    assert all(a.keeps_size == literal for a in shaped)
    assert not any(a.keeps_size for a in spec.args if a not in shaped)
    assert pinned_launch(list(spec.args), spec.dim) == literal
    assert (bench_launch_dim(list(spec.args), spec.dim) == spec.dim) == literal
    if literal:
        assert f"< {GRID[0]}" in spec.source or f"% {GRID[0]}" in spec.source or f", {GRID[0] - 1})" in spec.source


def test_a_fixed_image_is_benchmarked_at_its_size_within_its_arrays(tmp_path):
    """The sample of a kernel whose code holds its image's extents: a bench below its size stays within
    the arrays (AddressSanitizer on the host; before, the image shrank with the launch and the literal
    extents read past it), and one above it is refused in one line, exit 2."""
    spec = next(s for s in (generate("nested_loop", k) for k in range(400))
                if any(a.keeps_size for a in s.args) and "Game of Life" in s.description)
    folder = write_spec_sample(tmp_path, spec, None)
    rows = spec.dim[0]
    small = sanitized_bench(folder, rows // 4)
    assert small.compiled and small.returncode == 0, small.output
    assert f'"launch_dim": [{rows // 4}, {spec.dim[1]}]' in small.output
    big = run_on_host(folder, run_args=("--bench", "--bench-dim", str(rows + 1)))
    assert big.returncode == 2
    assert big.output == (f"--bench-dim {rows + 1}: this kernel's code holds its launch's extents ({rows} rows), "
                          f"so its arrays keep their size: it runs at {rows} rows or fewer\n")


def test_every_form_is_tested():
    tested = {"dense layer", "row matmul", "nearest centroid", "attention", "tensor polynomial", "chain energy",
              "cell quadrature", "neighbourhood filter", "Game of Life"}
    assert set(NESTED_FORMS) == tested
