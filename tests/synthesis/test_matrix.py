"""Each computation of the matrix category computes what its name says.

A form is built into a kernel of its own and run in Python, thread by thread, over inputs drawn on the
arrays' grids; every coefficient is a kernel parameter here, so the test reads it. The results are
checked against numpy's linear algebra: a solve against the system it solves, strains and energies
against their formulas, eigenvalues against `eigvalsh` and `svd`, power iteration against the same
iteration done here.
"""
from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synthesis.categories import matrix
from synthesis.categories.matrix import MATRIX_FORMS
from tests.synthesis.forms import build, joined, elements, named, scalar, value
from tests.synthesis.python_run import draw_inputs, run

SEEDS = st.integers(0, 2**32 - 1)
PROPERTY = settings(max_examples=10, deadline=None, derandomize=True)


def form(name: str, seed: int, **kwargs):
    spec = build(matrix, MATRIX_FORMS, name, seed, literal_knobs=False, **kwargs)
    inputs = draw_inputs(spec, seed)
    got = run(spec, inputs)
    return spec, joined(spec, inputs), joined(spec, got)


@PROPERTY
@given(SEEDS)
def test_a_regularised_solve_solves_the_shifted_system(seed):
    spec, inputs, got = form("regularised solve", seed)
    lam = scalar(spec, "lam", "reg", "damping")
    for e in elements(spec, inputs):
        a, b = inputs[named(spec, "A", "systems", "mats")][e], inputs[named(spec, "rhs", "b", "targets")][e]
        m = a + lam * np.eye(len(b))
        np.testing.assert_allclose(m @ got[named(spec, "x", "solution", "coeffs")][e], b, atol=1e-9)
        if named(spec, "det", "jacobian"):
            assert got[named(spec, "det", "jacobian")][e] == pytest.approx(np.linalg.det(m), abs=1e-9)


@PROPERTY
@given(SEEDS)
def test_strains_and_energies_follow_their_formulas(seed):
    spec, inputs, got = form("strain", seed)
    d = spec.description
    for e in elements(spec, inputs):
        g = inputs[named(spec, "grad_u", "disp_grad", "H")][e]
        f = np.eye(3) + g
        strain = 0.5 * (g + g.T) if "small-strain" in d else 0.5 * (f.T @ f - np.eye(3))
        if named(spec, "strain", "E_out", "green"):
            np.testing.assert_allclose(got[named(spec, "strain", "E_out", "green")][e], strain, atol=1e-9)
        elif named(spec, "deviator", "dev_strain"):
            want = strain - np.trace(strain) / 3.0 * np.eye(3)
            np.testing.assert_allclose(got[named(spec, "deviator", "dev_strain")][e], want, atol=1e-9)
            assert np.trace(got[named(spec, "deviator", "dev_strain")][e]) == pytest.approx(0.0, abs=1e-9)
            if named(spec, "eq_strain", "strain_vm"):  # the deviator's equivalent (von Mises) strain
                want_eq = np.sqrt(2.0 / 3.0 * np.sum(want * want))
                assert got[named(spec, "eq_strain", "strain_vm")][e] == pytest.approx(want_eq, abs=1e-9)
        elif named(spec, "shear", "e_shear"):
            i, j = (int(x) for x in re.search(r"\[(\d)(?:, |\]\[)(\d)\]", spec.source).groups())
            assert got[named(spec, "shear", "e_shear")][e] == pytest.approx(strain[i, j], abs=1e-9)
            assert got[named(spec, "dilation", "trace_e")][e] == pytest.approx(np.trace(strain), abs=1e-9)
        elif named(spec, "volume_ratio", "J_out", "jac"):
            assert got[named(spec, "volume_ratio", "J_out", "jac")][e] == pytest.approx(np.linalg.det(f), abs=1e-9)
        else:
            mu, lam = scalar(spec, "mu", "shear_mod"), scalar(spec, "lam", "bulk")
            if "neo-Hookean" in d:
                log_j = np.log(np.linalg.det(f))
                want = 0.5 * mu * (np.trace(f.T @ f) - 3.0) - mu * log_j + 0.5 * lam * log_j ** 2
            else:
                want = mu * np.sum(strain * strain) + 0.5 * lam * np.trace(strain) ** 2
            assert got[named(spec, "energy", "psi")][e] == pytest.approx(want, abs=1e-9)


@PROPERTY
@given(SEEDS)
def test_a_rotated_tensor_is_r_s_r_transposed(seed):
    spec, inputs, got = form("rotate tensor", seed)
    for e in elements(spec, inputs):
        s = inputs[named(spec, "stress", "S", "tensors")][e]
        if "angle" in spec.description:
            theta_array = named(spec, "theta", "angle", "orient")
            theta = inputs[theta_array][e] if theta_array in inputs else scalar(spec, "theta", "angle")
            r = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
        else:
            r = inputs[named(spec, "frames", "R", "rot")][e]
        local = "local frame" in spec.description
        want = r.T @ s @ r if local else r @ s @ r.T
        # named for the frame it lands in: a tensor taken into the local frame is never S_world
        assert not named(spec, "S_local" if not local else "S_world")
        out = named(spec, "rotated", "S_local" if local else "S_world", "stress_out")
        if out:
            np.testing.assert_allclose(got[out][e], want, atol=1e-9)
        if named(spec, "sigma_nn", "normal_stress"):
            assert got[named(spec, "sigma_nn", "normal_stress")][e] == pytest.approx(want[0, 0], abs=1e-9)


@PROPERTY
@given(SEEDS)
def test_a_quadratic_form_is_the_mahalanobis_distance_under_its_precision(seed):
    spec, inputs, got = form("quadratic form", seed)
    mean = value(spec, "mean", "mu", "center")
    for e in elements(spec, inputs):
        d = inputs[named(spec, "samples", "x", "points")][e] - mean
        if named(spec, "L", "chol", "shape_factor"):
            factor = inputs[named(spec, "L", "chol", "shape_factor")][e]
            p = factor @ factor.T + 0.5 * np.eye(len(d))
        else:
            p = value(spec, "precision", "P", "inv_cov")
        q = d @ p @ d
        assert q > 0.0
        if named(spec, "density", "weight", "likelihood"):
            density = got[named(spec, "density", "weight", "likelihood")][e]
            if "weighted mixture component" in spec.description:  # the component's weight times it
                ratio = density / np.exp(-0.5 * q)
                assert 0.25 - 1e-9 <= ratio <= 0.75 + 1e-9
                if "coefficient per element" not in spec.description:
                    assert min(abs(ratio - w) for w in (0.25, 0.5, 0.75)) < 1e-9
            else:
                assert density == pytest.approx(np.exp(-0.5 * q), abs=1e-9)
        else:
            assert got[named(spec, "mahalanobis_sq", "d2", "energy")][e] == pytest.approx(q, abs=1e-9)


@PROPERTY
@given(SEEDS)
def test_2x2_eigenvalues_match_numpy_and_name_what_they_describe(seed):
    spec, inputs, got = form("eigenvalues 2x2", seed)
    d = spec.description
    for e in elements(spec, inputs):
        m = inputs[named(spec, "stress", "tensors", "sigma", "M", "hessian")][e]
        if "singular values" in d:
            hi, lo = np.linalg.svd(m, compute_uv=False)
        else:
            lo, hi = np.linalg.eigvalsh(0.5 * (m + m.T))
        s = 0.5 * (m + m.T)
        checks = {("eigvals", "lambdas", "sv"): np.array([hi, lo]), ("lambda_max", "principal"): hi,
                  ("tau_max", "max_shear"): 0.5 * (hi - lo),
                  ("von_mises", "sigma_vm"): np.sqrt(hi * hi - hi * lo + lo * lo),
                  ("theta_p", "principal_angle"): 0.5 * np.arctan2(2.0 * s[0, 1], s[0, 0] - s[1, 1])}
        theta = checks[("theta_p", "principal_angle")]
        checks[("principal_dir", "n_principal")] = np.array([np.cos(theta), np.sin(theta)])
        for hints, want in checks.items():
            if named(spec, *hints):
                np.testing.assert_allclose(got[named(spec, *hints)][e], want, atol=1e-7)


@PROPERTY
@given(SEEDS)
def test_a_rank_one_update_adds_alpha_u_v_transposed(seed):
    spec, inputs, got = form("rank-one update", seed)
    alpha = scalar(spec, "alpha", "rho", "step")
    for e in elements(spec, inputs):
        a, u = inputs[named(spec, "A", "mats", "H")][e], inputs[named(spec, "u", "s_step", "dx")][e]
        v = u if "symmetric" in spec.description else inputs[named(spec, "v", "y_step", "dg")][e]
        updated = a + alpha * np.outer(u, v)
        if named(spec, "A_out", "updated", "mats_out"):
            np.testing.assert_allclose(got[named(spec, "A_out", "updated", "mats_out")][e], updated, atol=1e-12)
        else:
            g = inputs[named(spec, "g", "grad", "rhs")][e]
            np.testing.assert_allclose(got[named(spec, "direction", "applied")][e], updated @ g, atol=1e-12)


@PROPERTY
@given(SEEDS)
def test_normals_take_the_inverse_transpose_and_stay_perpendicular_to_mapped_tangents(seed):
    spec, inputs, got = form("normal transform", seed)
    rng = np.random.default_rng(seed)
    for e in elements(spec, inputs):
        m = np.eye(3) + inputs[named(spec, "deform", "G", "linear")][e]
        n = inputs[named(spec, "normals", "n_in", "vertex_n")][e]
        in_place = "normals updated in place" in spec.description
        out = got[named(spec, "normals", "vertex_n") if in_place else named(spec, "normals_out", "n_out")][e]
        want = np.linalg.inv(m).T @ n
        np.testing.assert_allclose(out, want / np.linalg.norm(want), atol=1e-9)
        tangent = np.cross(n, rng.normal(size=3))  # any tangent of the surface, mapped by M, stays one
        assert np.dot(out, m @ tangent) == pytest.approx(0.0, abs=1e-9)
        if named(spec, "points_out", "moved"):
            p = inputs[named(spec, "points", "verts")][e]
            np.testing.assert_allclose(got[named(spec, "points_out", "moved")][e], m @ p, atol=1e-12)


@PROPERTY
@given(SEEDS)
def test_power_iteration_repeats_a_normalised_product_and_estimates_an_eigenvalue(seed):
    spec, inputs, got = form("power iteration", seed)
    steps = int(re.search(r"power iteration \((\d+) steps\)", spec.description).group(1))
    built = re.search(r"power iteration on (B\^T B|B B\^T|shifted symmetric part)", spec.description).group(1)
    estimate = re.search(r"eigenvalue (by the Rayleigh quotient|as the length of A v|kept by the loop)",
                         spec.description)
    for e in elements(spec, inputs):
        b = inputs[named(spec, "B", "factors", "mats")][e]
        n = len(b)
        a = {"B^T B": b.T @ b + np.eye(n), "B B^T": b @ b.T + np.eye(n),
             "shifted symmetric part": 0.5 * (b + b.T) + (n + 1) * np.eye(n)}[built]
        v = inputs[named(spec, "v0", "guess", "init")][e]
        v = v / np.linalg.norm(v)
        last_length = None
        for _ in range(steps):
            last_length = np.linalg.norm(a @ v)
            v = a @ v / last_length
        np.testing.assert_allclose(got[named(spec, "eigvec", "dominant")][e], v, atol=1e-9)
        if estimate is not None:
            value = got[named(spec, "eigval", "rayleigh", "lambda_max")][e]
            expected = {"by the Rayleigh quotient": v @ a @ v, "as the length of A v": np.linalg.norm(a @ v),
                        "kept by the loop": last_length}[estimate.group(1)]
            assert value == pytest.approx(expected, abs=1e-9)
            low, high = np.linalg.eigvalsh(a)[[0, -1]]
            assert low - 1e-9 <= value <= high + 1e-9


@PROPERTY
@given(SEEDS)
def test_a_tetrahedral_element_maps_its_edges_by_the_inverse_rest_matrix(seed):
    spec, inputs, got = form("tetrahedral element", seed)
    x = inputs[named(spec, "x", "positions", "particle_q")]
    flat = named(spec, "tet_indices", "tets", "elements")
    dm_inv = inputs[named(spec, "Dm_inv", "rest_inv", "inv_rest")]
    rest = named(spec, "rest_volume", "vol0", "volume")
    mu, lam = scalar(spec, "mu", "shear_mod"), scalar(spec, "lam", "bulk")
    for (t,) in elements(spec, inputs):
        if flat and inputs[flat].ndim == 2:  # a row of four per element
            ids = inputs[flat][t]
        else:
            ids = inputs[flat][4 * t:4 * t + 4] if flat else \
                [inputs[next(a.name for a in spec.args if a.role == "index" and a.name.endswith(str(k)))][t] for k in range(4)]
        p = x[list(ids)]
        f = np.stack([p[1] - p[0], p[2] - p[0], p[3] - p[0]], 1) @ dm_inv[t]
        j = np.linalg.det(f)
        weight = inputs[rest][t] if rest else 1.0
        if named(spec, "F_out", "def_grad"):
            np.testing.assert_allclose(got[named(spec, "F_out", "def_grad")][t], f, atol=1e-9)
            assert got[named(spec, "J", "volume_ratio")][t] == pytest.approx(j, abs=1e-9)
        elif mu is not None:
            psi = 0.5 * mu * (np.sum(f * f) - 3.0) + 0.5 * lam * (j - 1.0 - mu / lam) ** 2
            assert got[named(spec, "energy", "psi", "element_energy")][t] == pytest.approx(weight * psi, rel=1e-9, abs=1e-9)
        else:
            assert got[named(spec, "J", "volume_ratio", "jacobian")][t] == pytest.approx(weight * j, abs=1e-9)


def _rotation(q: np.ndarray) -> np.ndarray:
    """The rotation matrix of the quaternion (x, y, z, w), normalised first."""
    x, y, z, w = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


@PROPERTY
@given(SEEDS)
def test_a_rotation_step_is_the_stepped_matrix_made_orthonormal_by_gram_schmidt_on_its_rows(seed):
    spec, inputs, got = form("rotation step", seed)
    q_name, w_name = named(spec, "orientation", "rot", "body_q"), named(spec, "omega", "ang_vel", "body_w")
    dt = scalar(spec, "dt", "time_step", "h")
    out = got[named(spec, "R_out", "frames", "body_R")]
    for e in elements(spec, inputs):
        r, (a, b, c) = _rotation(inputs[q_name][e]), inputs[w_name][e]
        wx = np.array([[0.0, -c, b], [c, 0.0, -a], [-b, a, 0.0]])  # wx @ v == omega x v
        stepped = r + dt * (wx @ r if "world frame" in spec.description else r @ wx)
        r0 = stepped[0] / np.linalg.norm(stepped[0])
        r1 = stepped[1] - np.dot(stepped[1], r0) * r0
        r1 /= np.linalg.norm(r1)
        np.testing.assert_allclose(out[e], np.array([r0, r1, np.cross(r0, r1)]), atol=1e-12)
        np.testing.assert_allclose(out[e] @ out[e].T, np.eye(3), atol=1e-12)  # a rotation again
        assert np.linalg.det(out[e]) == pytest.approx(1.0, abs=1e-12)


@PROPERTY
@given(SEEDS)
def test_a_neighbourhood_covariance_is_the_biased_covariance_of_the_k_neighbours(seed):
    spec, inputs, got = form("neighbour covariance", seed)
    pts, ids = inputs[named(spec, "points", "cloud", "positions")], inputs[named(spec, "knn", "neighbors", "nbr_ids")]
    k = int(re.search(r"^(?:K|NUM_NEIGHBORS|KNN) = (?:wp\.constant\()?(\d+)", spec.source, re.M).group(1))
    cov = got[named(spec, "covariance", "cov_out", "second_moment")]
    spread = named(spec, "spread", "variance_sum")
    for (e,) in elements(spec, inputs):
        nbrs = pts[ids[e * k:(e + 1) * k]]
        want = np.cov(nbrs.T, bias=True)
        np.testing.assert_allclose(cov[e], want, atol=1e-12)
        if spread:
            assert got[spread][e] == pytest.approx(np.trace(want), abs=1e-12)


@pytest.mark.parametrize("seed", range(12))
def test_power_iterations_results_replace_the_old_never_added_to_or_blended(seed):
    """An eigenvector and its eigenvalue estimate are an iteration's result: the writer's output updates
    (`+=`, smoothing), forced on here, leave them as written."""
    import random

    from synthesis.categories.rich import RichKernelWriter
    from synthesis.categories.site import Site

    rng = random.Random(seed)
    w = RichKernelWriter(rng, "k_0a1b2c3d4e", "matrix", seed, (24,))
    w.output_update_share = 1.0
    MATRIX_FORMS["power iteration"].build(Site(w, "direct"), False)
    spec = w.finish("test")
    results = [a for a in spec.args if a.name.split("_")[0] in ("eigvec", "dominant", "eigval", "rayleigh", "lambda")]
    assert results and all(a.role == "output" for a in results), spec.source


def test_a_negative_rank_one_step_is_written_as_a_subtraction():
    """`A - 0.5 * wp.outer(u, v)`, not `A + -0.5 * wp.outer(u, v)` (seeds 9 and 75 drew it)."""
    from synthesis.categories import generate

    sources = [generate("matrix", seed).source for seed in range(120)]
    assert sum("wp.outer(" in s for s in sources) >= 5
    assert [s for s in sources if "+ -" in s or "- -" in s] == []


@pytest.mark.parametrize("form_name, feature", [("eigenvalues 2x2", "principal direction"),
                                                ("strain", "equivalent strain")])
def test_a_variant_holds_what_its_name_says(form_name, feature):
    """The principal direction is the unit vector at the principal angle; the equivalent strain is
    sqrt(2/3 dev : dev) of the stored deviator (matrix.variant: a stream of its own)."""
    seed = next(s for s in range(400) if feature in build(matrix, MATRIX_FORMS, form_name, s, literal_knobs=False).description)
    spec, inputs, got = form(form_name, seed)
    for e in elements(spec, inputs):
        if feature == "principal direction":
            theta = got[named(spec, "theta_p", "principal_angle")][e]
            np.testing.assert_allclose(got[named(spec, "principal_dir", "n_principal")][e],
                                       [np.cos(theta), np.sin(theta)], atol=1e-9)
        else:
            dev = got[named(spec, "deviator", "dev_strain")][e]
            assert got[named(spec, "eq_strain", "strain_vm")][e] == pytest.approx(np.sqrt(2.0 / 3.0 * np.sum(dev * dev)),
                                                                               abs=1e-9)


@pytest.mark.parametrize("feature", ["principal direction", "equivalent strain"])
def test_a_variant_survives_the_generators_checks(feature):
    """Drawn in generated kernels, not only by the form: a variant the realism check rejects is redrawn
    as another kind and never appears (`2.0 / 3.0`, a literal quotient, did that to the equivalent strain)."""
    from synthesis.categories import generate

    assert sum(feature in generate("matrix", seed).description for seed in range(2000)) >= 3
