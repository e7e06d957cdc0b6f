"""Matrix: the linear algebra people write per element, one table entry per computation (MATRIX_FORMS).

A kernel holds one computation with a name, on mat22/mat33 arrays: a small regularised linear system
solved ((A + lambda I) x = b, with `wp.inverse`), the Green strain and volume ratio of a deformation
gradient (with a neo-Hookean energy density), a tensor moved into another frame (R S R^T, with a
rotation built from an angle in 2-D), a Gaussian's quadratic form (Mahalanobis distance), the
eigenvalues of a symmetric 2x2 matrix, a rank-one update (A + alpha u v^T), a normal transformed by
the inverse transpose, power iteration for a dominant eigenvector, a linear tetrahedral
element's deformation gradient (F = Ds Dm^-1, its volume ratio or a stable neo-Hookean energy), a rigid
body's rotation stepped by its angular velocity and made orthonormal again row by row (`R[1] = ...`),
and a point's neighbourhood covariance accumulated entry by entry (`C[r, c] += d[r] * d[c]`). Where the thread's element
comes from and whether the computation is a `@wp.func` are drawn around it
(`synthesis/categories/site.py`).

Numerics: every inverted matrix is the identity (or lambda I, lambda >= 1) plus entries of at most 1/4
per element: diagonally dominant, so well conditioned, and its determinant is positive (the logarithm
of a volume ratio exists). The 2x2 eigenvalues read inputs on a 1/32 grid: the discriminant is exact,
so its square root is the same everywhere even at a double eigenvalue.
"""
from __future__ import annotations

import math
import random

from synthesis.categories.common import takes_variant
from synthesis.categories.rich import RichKernelWriter, grid_value
from synthesis.categories.site import ACCESSES, PER_ELEMENT, Core, Form, Site, launch
from synthesis.exprgen import fmt_float
from synthesis.spec import KernelSpec

FUNC_SHARE = 0.4  # kernels whose computation is a @wp.func


def _identity(w: RichKernelWriter, n: int) -> str:
    """`wp.identity(n=3, dtype=float)`, spelled as people do."""
    return w.rng.choice([f"wp.identity(n={n}, dtype=float)", f"wp.identity(n={n}, dtype=wp.float32)"])


def _matmul(w: RichKernelWriter, a: str, b: str) -> str:
    """A matrix product: `a @ b` mostly, `wp.mul(a, b)` in older code."""
    return f"wp.mul({a}, {b})" if w.rng.random() < 0.25 else f"{a} @ {b}"


def store_and_derive(site: Site, salt: int, local_hint: str, stored: tuple, derived: tuple, feature: str) -> None:
    """Store `stored` = (hints, dtype, value, bound) in its output; in a variant (`takes_variant`, `salt`: a
    stream of its own),
    through a local named `local_hint`, with `derived` = (hints, dtype, local -> value, bound) stored beside it."""
    hints, dtype, value, bound = stored
    if not takes_variant(site.w.seed, salt):
        site.store(hints, dtype, value, bound)
        return
    value = site.local(local_hint, value)
    site.store(hints, dtype, value, bound)
    derived_hints, derived_dtype, derive, derived_bound = derived
    site.store(derived_hints, derived_dtype, derive(value), derived_bound)
    site.w.feature(feature)


def regularised_solve(site: Site, as_func: bool) -> None:
    """x = (A + lambda I)^-1 b: a ridge-regularised (Tikhonov) solve of a small system per thread,
    lambda a parameter; the solution written, and with it the system's determinant."""
    w = site.w
    n = w.rng.choice([2, 3])
    a_in = site.input(("A", "systems", "mats"), f"mat{n}{n}", -0.25, 0.25)
    b_in = site.input(("rhs", "b", "targets"), f"vec{n}", -1.0, 1.0)
    with_det = w.rng.random() < 0.4
    core = Core(site, "solve_regularised", as_func and not with_det)
    lam = core.param("lam", "float32", site.knob(("lam", "reg", "damping"), (1.0, 1.5, 2.0)))
    shift = _identity(w, n) if lam == "1.0" else f"{lam} * {_identity(w, n)}"  # `1.0 * I` is I
    a = core.param("a", f"mat{n}{n}", a_in)
    if w.rng.random() < 0.3:  # the shift added on the diagonal, entry by entry
        m = core.let("M", a)
        with core.block(f"for k in range({n}):"):
            core.emit(f"{m}[k, k] += {lam}")
        w.feature("diagonal shifted in place (M[k, k] += lambda)")
    else:
        m = core.let("M", f"{a} + {shift}")
    if w.rng.random() < 0.5:
        x = core.result(_matmul(w, f"wp.inverse({m})", core.param("b", f"vec{n}", b_in)), f"vec{n}")
    else:  # the inverse kept in a local, as when it is used again
        m_inv = core.let("M_inv", f"wp.inverse({m})")
        x = core.result(_matmul(w, m_inv, core.param("b", f"vec{n}", b_in)), f"vec{n}")
    site.store(("x", "solution", "coeffs"), f"vec{n}", x, 8.0)
    if with_det:
        site.store(("det", "jacobian"), "float32", f"wp.determinant({m})", 4.0 ** n)
    w.feature(f"regularised {n}x{n} solve (wp.inverse)")


def _moduli(site: Site, core: Core) -> tuple[str, str]:
    """An elastic material's Lame parameters (mu, lambda), always kernel parameters."""
    mu = core.param("mu", "float32", site.knob(("mu", "shear_mod"), (0.5, 1.0, 2.0), literal=False))
    lam = core.param("lam", "float32", site.knob(("lam", "bulk"), (1.0, 2.0, 4.0), literal=False))
    return mu, lam


def strain(site: Site, as_func: bool) -> None:
    """Continuum mechanics at a material point from the displacement gradient G: finite strain with
    F = I + G, C = F^T F, the Green strain E = (C - I) / 2, the volume ratio J = det F, or the small
    strain (G + G^T) / 2; written as the tensor, its deviatoric part, a shear component with the
    dilation tr E, J, or an energy density: neo-Hookean mu/2 (tr C - 3) - mu log J + lambda/2 (log J)^2,
    or St. Venant-Kirchhoff mu E:E + lambda/2 (tr E)^2."""
    w = site.w
    g_in = site.input(("grad_u", "disp_grad", "H"), "mat33", -0.25, 0.25)
    kind = w.rng.choice(["strain", "deviatoric", "shear", "neo-Hookean", "St. Venant-Kirchhoff", "volume"])
    small = kind in ("strain", "deviatoric", "shear") and w.rng.random() < 0.35
    core = Core(site, {"strain": "strain_tensor", "deviatoric": "deviatoric_strain", "shear": "strain_tensor",
                       "neo-Hookean": "neo_hookean", "St. Venant-Kirchhoff": "stvk_energy",
                       "volume": "volume_ratio"}[kind], as_func)
    g = core.param("grad_u", "mat33", g_in)
    if small:
        e = core.let("eps", f"0.5 * ({g} + wp.transpose({g}))")
        w.feature("small-strain tensor")
    elif kind != "volume":
        f = core.let("F", f"{_identity(w, 3)} + {g}")
        if kind != "neo-Hookean":
            c = core.let("C", _matmul(w, f"wp.transpose({f})", f))
            e = core.let("E", f"0.5 * ({c} - {_identity(w, 3)})")
            w.feature("Green strain")
    if kind == "strain":
        site.store(("strain", "E_out", "green"), "mat33", core.result(e, "mat33"), 2.0)
    elif kind == "deviatoric":
        dev = core.result(f"{e} - (wp.trace({e}) / 3.0) * {_identity(w, 3)}", "mat33")
        # and, in a variant, the deviator's equivalent (von Mises) strain
        store_and_derive(site, 0xDE5, "dev", (("deviator", "dev_strain"), "mat33", dev, 4.0),
                         (("eq_strain", "strain_vm"), "float32", lambda d: f"wp.sqrt(wp.ddot({d}, {d}) / 1.5)", 8.0),
                         "equivalent strain")
        w.feature("deviatoric part")
    elif kind == "shear":
        e = site.local("E_t", core.result(e, "mat33")) if core.as_func else e
        i, j = w.rng.sample(range(3), 2)
        element = f"{e}[{i}, {j}]" if w.rng.random() < 0.5 else f"{e}[{i}][{j}]"
        site.store(("shear", "e_shear"), "float32", element, 2.0)
        site.store(("dilation", "trace_e"), "float32", f"wp.trace({e})", 6.0)
        w.feature("shear strain and dilation")
    elif kind == "volume":
        site.store(("volume_ratio", "J_out", "jac"), "float32",
                   core.result(f"wp.determinant({_identity(w, 3)} + {g})", "float32"), 4.0)
        w.feature("volume ratio (determinant)")
    elif kind == "St. Venant-Kirchhoff":
        mu, lam = _moduli(site, core)
        tr = core.let("tr_e", f"wp.trace({e})")
        value = f"{mu} * wp.ddot({e}, {e}) + 0.5 * {lam} * {tr} * {tr}"
        site.store(("energy", "psi"), "float32", core.result(value, "float32"), 40.0)
        w.feature("St. Venant-Kirchhoff energy density (wp.ddot)")
    else:
        j = core.let("J", f"wp.determinant({f})")
        i1 = core.let("I1", f"wp.trace({_matmul(w, f'wp.transpose({f})', f)})") if w.rng.random() < 0.5 \
            else core.let("I1", f"wp.ddot({f}, {f})")
        mu, lam = _moduli(site, core)
        log_j = core.let("log_j", f"wp.log({j})")
        value = f"0.5 * {mu} * ({i1} - 3.0) - {mu} * {log_j} + 0.5 * {lam} * {log_j} * {log_j}"
        site.store(("energy", "psi"), "float32", core.result(value, "float32"), 40.0)
        w.feature("neo-Hookean energy density")


def rotate_tensor(site: Site, as_func: bool) -> None:
    """A tensor moved between frames: R S R^T into the world, R^T S R into the local frame; in 2-D with
    R built from an angle (`wp.mat22(c, -s, s, c)`, per element or one for all), in 3-D with the
    frame's rows given; the tensor written, or its normal component along the frame's first axis."""
    w = site.w
    two_d = w.rng.random() < 0.5
    n = 2 if two_d else 3
    s_in = site.input(("stress", "S", "tensors"), f"mat{n}{n}", -2.0, 2.0)
    if two_d:
        frame_in = site.input(("theta", "angle", "orient"), "float32", -3.0, 3.0) if w.rng.random() < 0.6 \
            else w.add_scalar(w.rng.choice(["theta", "angle"]), "float32", grid_value(w.rng, -3.0, 3.0, 4)).src
    else:
        frame_in = site.input(("frames", "R", "rot"), "mat33", -1.0, 1.0)
    to_local = w.rng.random() < 0.4
    core = Core(site, "to_local_frame" if to_local else "rotate_tensor", as_func)
    s_val = core.param("s", f"mat{n}{n}", s_in)
    if two_d:
        theta = core.param("theta", "float32", frame_in)
        c, sn = core.let("c", f"wp.cos({theta})"), core.let("s_", f"wp.sin({theta})")
        r = core.let("R", f"wp.mat22({c}, -{sn}, {sn}, {c})")
        w.feature("2-D rotation matrix from an angle")
    else:
        r = core.param("r", "mat33", frame_in)
    if to_local:
        rotated = core.result(_matmul(w, _matmul(w, f"wp.transpose({r})", s_val), r), f"mat{n}{n}")
        w.feature("tensor taken into a local frame (R^T S R)")
    else:
        rotated = core.result(_matmul(w, _matmul(w, r, s_val), f"wp.transpose({r})"), f"mat{n}{n}")
        w.feature("tensor rotated into a frame (R S R^T)")
    bound = 2.0 * n * n * n
    # named for the frame it lands in: R^T S R is the tensor in the local frame, never `S_world`
    names = ("rotated", "S_local", "stress_out") if to_local else ("rotated", "S_world", "stress_out")
    if w.rng.random() < 0.3:
        rotated = site.local("S_rot", rotated)
        site.store(("sigma_nn", "normal_stress"), "float32", f"{rotated}[0, 0]", bound)
        w.feature("normal component")
        if w.rng.random() < 0.5:
            site.store(names, f"mat{n}{n}", rotated, bound)
    else:
        site.store(names, f"mat{n}{n}", rotated, bound)


def quadratic_form(site: Site, as_func: bool) -> None:
    """A Gaussian's quadratic form (the squared Mahalanobis distance) d^T P d, d = x - mean, with the
    precision matrix P = L L^T passed by value; written as is or as the unnormalised density
    exp(-q / 2)."""
    w = site.w
    n = w.rng.choice([2, 3])
    x_in = site.input(("samples", "x", "points"), f"vec{n}", -2.0, 2.0)
    mean = w.add_value(w.rng.choice(["mean", "mu", "center"]), f"vec{n}",
                       tuple(grid_value(w.rng, -1.0, 1.0, 3) for _ in range(n)))
    per_element = w.rng.random() < 0.4  # each element's own shape: P = L L^T + eps I from a factor L
    if per_element:
        factor_in = site.input(("L", "chol", "shape_factor"), f"mat{n}{n}", -1.0, 1.0)
        top = 1.0 * n + 0.5
    else:
        lower = [[(grid_value(w.rng, 0.5, 1.5, 3) if i == j else grid_value(w.rng, -0.5, 0.5, 3)) if j <= i else 0.0
                  for j in range(n)] for i in range(n)]
        precision = tuple(sum(lower[i][k] * lower[j][k] for k in range(n)) for i in range(n) for j in range(n))
        p_val = w.add_value(w.rng.choice(["precision", "P", "inv_cov"]), f"mat{n}{n}", precision)
        top = max(abs(v) for v in precision)
    density = w.rng.random() < 0.5
    core = Core(site, "gaussian_density" if density else "mahalanobis_sq", as_func)
    d = core.let("d", f"{core.param('x', f'vec{n}', x_in)} - {core.param('mean', f'vec{n}', mean.src)}")
    if per_element:
        factor = core.param("l", f"mat{n}{n}", factor_in)
        p = core.let("P", f"{_matmul(w, factor, f'wp.transpose({factor})')} + 0.5 * {_identity(w, n)}")
        w.feature("precision from a per-element factor")
    else:
        p = core.param("precision", f"mat{n}{n}", p_val.src)
    q = f"wp.dot({d}, {_matmul(w, p, d)})"
    if density:
        value = core.result(f"wp.exp(-0.5 * {q})", "float32")
        if w.rng.random() < 0.4:  # a mixture component's weight (its normalisation folded in)
            value = f"{site.knob(('amplitude', 'mix_weight'), (0.25, 0.5, 0.75))} * {value}"
            w.feature("weighted mixture component")
        site.store(("density", "weight", "likelihood"), "float32", value, 1.0)
        w.feature("Gaussian density (quadratic form)")
    else:
        bound = 9.0 * n * n * top
        site.store(("mahalanobis_sq", "d2", "energy"), "float32", core.result(q, "float32"), bound)
        w.feature("squared Mahalanobis distance")


def eigen2(site: Site, as_func: bool) -> None:
    """The eigenvalues of a symmetric 2x2 matrix, tr/2 +- sqrt((tr/2)^2 - det): of an input's symmetric
    part (a stress: the principal values, their spread, the von Mises stress, the principal angle
    atan2(2 s01, s00 - s11) / 2), or of a Gram matrix M^T M (M's singular values, their square roots)."""
    w = site.w
    gram = w.rng.random() < 0.35
    # inputs on a coarse grid: every value below is exact, so the square roots agree everywhere
    m_in = site.input(("tensors", "M", "hessian"), "mat22", -1.0, 1.0, grid_bits=3) if gram \
        else site.input(("stress", "tensors", "sigma"), "mat22", -2.0, 2.0, grid_bits=5)
    kind = w.rng.choice(["pair", "largest"] if gram else ["pair", "largest", "spread", "von Mises", "angle"])
    core = Core(site, {"pair": "singular_values" if gram else "principal_values", "largest": "largest_eigval",
                       "spread": "max_shear", "von Mises": "von_mises", "angle": "principal_angle"}[kind], as_func)
    m = core.param("m", "mat22", m_in)
    s = core.let("S", _matmul(w, f"wp.transpose({m})", m) if gram else f"0.5 * ({m} + wp.transpose({m}))")
    if kind == "angle":
        two_theta = f"wp.atan2(2.0 * {s}[0, 1], {s}[0, 0] - {s}[1, 1])"
        theta = core.result(f"0.5 * {two_theta}", "float32")
        # and, in a variant, the principal direction: the unit vector at that angle
        store_and_derive(site, 0xA41, "theta", (("theta_p", "principal_angle"), "float32", theta, 2.0),
                         (("principal_dir", "n_principal"), "vec2", lambda t: f"wp.vec2(wp.cos({t}), wp.sin({t}))", 1.0),
                         "principal direction")
        w.feature("principal angle")
        return
    if not gram and w.rng.random() < 0.4:  # Mohr's circle: its centre and radius from the components
        half = core.let("center", f"0.5 * ({s}[0, 0] + {s}[1, 1])")
        d = core.let("d", f"0.5 * ({s}[0, 0] - {s}[1, 1])")
        disc = core.let("radius", f"wp.sqrt({d} * {d} + {s}[0, 1] * {s}[0, 1])")
        w.feature("Mohr's circle")
    else:
        half = core.let("half_tr", f"0.5 * wp.trace({s})")
        disc = core.let("disc", f"wp.sqrt(wp.max({half} * {half} - wp.determinant({s}), 0.0))")
    hi, lo = f"{half} + {disc}", f"{half} - {disc}"
    if gram:
        hi, lo = f"wp.sqrt({hi})", f"wp.sqrt(wp.max({lo}, 0.0))"
        w.feature("singular values of a 2x2 matrix")
    if kind == "pair":
        if core.as_func and w.rng.random() < 0.5:
            call = core.result(f"{hi}, {lo}", ("float32", "float32"))
            a, b = site.local_name("l_max"), site.local_name("l_min")
            w.emit(f"{a}, {b} = {call}")
            site.store(("eigvals", "lambdas", "sv"), "vec2", f"wp.vec2({a}, {b})", 8.0)
            w.feature("tuple return")
        else:
            site.store(("eigvals", "lambdas", "sv"), "vec2", core.result(f"wp.vec2({hi}, {lo})", "vec2"), 8.0)
    elif kind == "largest":
        site.store(("lambda_max", "principal"), "float32", core.result(hi, "float32"), 8.0)
    elif kind == "spread":
        site.store(("tau_max", "max_shear"), "float32", core.result(disc, "float32"), 8.0)
    else:
        s1, s2 = core.let("s1", hi), core.let("s2", lo)
        site.store(("von_mises", "sigma_vm"), "float32",
                   core.result(f"wp.sqrt({s1} * {s1} - {s1} * {s2} + {s2} * {s2})", "float32"), 8.0)
    if not gram:
        w.feature(f"principal stresses of a 2x2 tensor ({kind})")


def rank_one_update(site: Site, as_func: bool) -> None:
    """A rank-one update A + alpha u v^T per thread (a quasi-Newton or covariance update), alpha a
    parameter; the updated matrix written, or applied to a vector."""
    w = site.w
    n = w.rng.choice([2, 3, 4])
    a_in = site.input(("A", "mats", "H"), f"mat{n}{n}")
    u_in = site.input(("u", "s_step", "dx"), f"vec{n}")
    symmetric = w.rng.random() < 0.3
    v_in = u_in if symmetric else site.input(("v", "y_step", "dg"), f"vec{n}")
    core = Core(site, "rank_one_update", as_func)
    a, u = core.param("a", f"mat{n}{n}", a_in), core.param("u", f"vec{n}", u_in)
    v = u if symmetric else core.param("v", f"vec{n}", v_in)
    alpha = core.param("alpha", "float32", site.knob(("alpha", "rho", "step"), (0.5, -0.5, 0.25)))
    # a negative step written in place reads `A - 0.5 * wp.outer(u, v)`, not `A + -0.5 * ...`
    sign, step = ("-", str(alpha)[1:]) if str(alpha).startswith("-") else ("+", alpha)
    updated = core.result(f"{a} {sign} {step} * wp.outer({u}, {v})", f"mat{n}{n}")
    if symmetric:
        w.feature("symmetric rank-one update")
    if w.rng.random() < 0.6:
        site.store(("A_out", "updated", "mats_out"), f"mat{n}{n}", updated, 2.0)
    else:
        updated = site.local("A_new", updated)
        g = site.input(("g", "grad", "rhs"), f"vec{n}")
        site.store(("direction", "applied"), f"vec{n}", _matmul(w, updated, g), 2.0 * n)
        w.feature("updated matrix applied to a vector")
    w.feature("rank-one update (wp.outer)")


def normal_transform(site: Site, as_func: bool) -> None:
    """Normals under a linear map M = I + G: multiplied by the inverse transpose (M^-T n) and
    renormalised, as normals are, while positions take M itself."""
    w = site.w
    g_in = site.input(("deform", "G", "linear"), "mat33", -0.25, 0.25)
    in_place = site.index is None and w.rng.random() < 0.3  # updated where they are (no active set: races)
    if in_place:
        normals, n_in = site.inout(("normals", "vertex_n"), "vec3")
    else:
        n_in = site.input(("normals", "n_in"), "vec3")
    with_points = w.rng.random() < 0.5
    core = Core(site, "transform_normal", as_func and not with_points)
    m = core.let("M", f"{_identity(w, 3)} + {core.param('g', 'mat33', g_in)}")
    nrm = core.param("n", "vec3", n_in)
    if w.rng.random() < 0.5:
        value = f"wp.normalize({_matmul(w, f'wp.transpose(wp.inverse({m}))', nrm)})"
    else:
        value = f"wp.normalize({_matmul(w, nrm, f'wp.inverse({m})')})"  # n^T M^-1, the same vector
        w.feature("row vector times the inverse")
    if in_place:
        site.store_to(normals, core.result(value, "vec3"), 1.0)
        w.feature("normals updated in place")
    else:
        site.store(("normals_out", "n_out"), "vec3", core.result(value, "vec3"), 1.0)
    if with_points:
        p = site.input(("points", "verts"), "vec3", -2.0, 2.0)
        site.store(("points_out", "moved"), "vec3", _matmul(w, m, p), 6.0)
        w.feature("positions and normals mapped")
    w.feature("normal matrix (inverse transpose)")


def power_iteration(site: Site, as_func: bool) -> None:
    """A few steps of power iteration on a symmetric positive matrix per thread (B^T B + I, B B^T + I,
    or B's symmetric part shifted past Gershgorin's bound): v <- A v normalised; the dominant
    eigenvector written, and its eigenvalue estimated (the Rayleigh quotient v.(A v), the length of
    A v, or the length kept by the loop as it normalises)."""
    w = site.w
    n = w.rng.choice([2, 3])
    b_in = site.input(("B", "factors", "mats"), f"mat{n}{n}", -1.0, 1.0)
    v_in = site.input(("v0", "guess", "init"), f"vec{n}", 0.25, 1.0)
    steps = w.rng.choice([4, 6, 8])
    estimate = w.rng.choice(["rayleigh", "rayleigh", "length", "in loop"]) if w.rng.random() < 0.6 else None
    core = Core(site, "dominant_eigvec", as_func and estimate is None)
    b = core.param("b", f"mat{n}{n}", b_in)
    built = w.rng.choice(["B^T B", "B^T B", "B B^T", "shifted symmetric part"])
    if built == "B^T B":
        a = core.let("A", f"{_matmul(w, f'wp.transpose({b})', b)} + {_identity(w, n)}")
    elif built == "B B^T":
        a = core.let("A", f"{_matmul(w, b, f'wp.transpose({b})')} + {_identity(w, n)}")
    else:  # entries of the symmetric part lie in [-1, 1]: a shift of n + 1 makes every eigenvalue >= 1
        a = core.let("A", f"0.5 * ({b} + wp.transpose({b})) + {fmt_float(n + 1.0)} * {_identity(w, n)}")
    w.feature(f"power iteration on {built}" + (" + I" if built != "shifted symmetric part" else ""))
    v = core.let("v_it", f"wp.normalize({core.param('v0', f'vec{n}', v_in)})")
    k = "it" if core.as_func else site.local_name("it")
    trips = str(steps)
    if w.rng.random() < 0.25:
        trips = core.param("n_iter", "int32", w.add_scalar(w.rng.choice(["n_iter", "iterations", "power_steps"]),
                                                           "int32", steps).src)
        w.feature("iteration count as a parameter")
    lam = None
    if estimate == "in loop":
        lam = site.local("lam", "float(0.0)")
        av = site.local_name("av")
        with core.block(f"for {k} in range({trips}):"):
            core.emit(f"{av} = {_matmul(w, a, v)}")
            core.emit(f"{lam} = wp.length({av})")
            core.emit(f"{v} = {av} / {lam}")
    else:
        with core.block(f"for {k} in range({trips}):"):
            core.emit(f"{v} = wp.normalize({_matmul(w, a, v)})")
    site.store(("eigvec", "dominant"), f"vec{n}", core.result(v, f"vec{n}"), 1.0, state=True)
    bound = 1.0 + n * n if built != "shifted symmetric part" else 2.0 * n + 1.0
    if estimate == "rayleigh":
        site.store(("eigval", "rayleigh"), "float32", f"wp.dot({v}, {_matmul(w, a, v)})", bound, state=True)
    elif estimate == "length":
        site.store(("eigval", "lambda_max"), "float32", f"wp.length({_matmul(w, a, v)})", bound, state=True)
    elif estimate == "in loop":
        site.store(("eigval", "lambda_max"), "float32", lam, bound, state=True)
    if estimate is not None:
        w.feature({"rayleigh": "eigenvalue by the Rayleigh quotient", "length": "eigenvalue as the length of A v",
                   "in loop": "eigenvalue kept by the loop"}[estimate])
    w.feature(f"power iteration ({steps} steps)")


def tet_deformation(site: Site, as_func: bool) -> None:
    """A linear finite element per thread, as an FEM solver's element loop has it: the tetrahedron's
    corners gathered through its indices, the edge matrix Ds (columns x1 - x0, x2 - x0, x3 - x0), the
    deformation gradient F = Ds Dm^-1 with the element's inverse rest matrix, and from it the volume
    ratio J = det F, a stable neo-Hookean energy density mu/2 (tr F^T F - 3) + lambda/2 (J - 1 - mu/lambda)^2
    (no logarithm: defined for inverted elements too), weighted by the rest volume, or F itself."""
    w = site.w
    tets = w.dim[0]
    n_verts = w.rng.choice([tets + 3, 2 * tets])
    x = w.add_array(w.rng.choice(["x", "positions", "particle_q"]), "vec3", "input", shape=(n_verts,), low=-1.0, high=1.0)
    w.unused.remove(x)
    t = w.tid_names[0]
    corners = []
    layout = w.rng.random()
    if layout < 0.35:
        indices = w.add_array(w.rng.choice(["tet_indices", "tets", "elements"]), "int32", "index", shape=(4 * tets,),
                              index_high=n_verts - 1)
        for k in range(4):
            corners.append(site.local(f"x{k}", f"{x}[{indices}[4 * {t}{f' + {k}' if k else ''}]]"))
        w.feature("tetrahedron corners through a flat index array")
    elif layout < 0.65:  # a row of four corner indices per element, as warp.sim keeps tet_indices
        indices = w.add_array(w.rng.choice(["tet_indices", "tets", "elements"]), "int32", "index", shape=(tets, 4),
                              index_high=n_verts - 1)
        if w.rng.random() < 0.5:  # the indices named first, as the solver reads them again for the forces
            ids = [site.local(f"{'ijkl'[k]}", f"{indices}[{t}, {k}]") for k in range(4)]
            corners.extend(site.local(f"x{k}", f"{x}[{ids[k]}]") for k in range(4))
        else:
            corners.extend(site.local(f"x{k}", f"{x}[{indices}[{t}, {k}]]") for k in range(4))
        w.feature("tetrahedron corners through a 2-D index array")
    else:
        pattern = w.rng.choice(["i{k}", "v{k}", "corner{k}"])  # one naming for the four
        for k in range(4):
            idx = w.add_array(pattern.format(k=k), "int32", "index", index_high=n_verts - 1)
            corners.append(site.local(f"x{k}", f"{x}[{idx}[{t}]]"))
        w.feature("tetrahedron corners through index arrays")
    dm_inv = site.input(("Dm_inv", "rest_inv", "inv_rest"), "mat33", -0.5, 0.5)
    x0 = corners[0]
    if w.rng.random() < 0.6:
        ds = site.local("Ds", f"wp.matrix_from_cols({', '.join(f'{c} - {x0}' for c in corners[1:])})")
        w.feature("edge matrix (wp.matrix_from_cols)")
    else:  # the edges in locals, the matrix written out by components (column k is edge k)
        edges = [site.local(f"e{k}", f"{c} - {x0}") for k, c in enumerate(corners[1:], 1)]
        ds = site.local("Ds", "wp.mat33(" + ", ".join(f"{edges[col]}[{row}]" for row in range(3) for col in range(3)) + ")")
        w.feature("edge matrix (wp.mat33 by components)")
    f = site.local("F", _matmul(w, ds, dm_inv))
    kind = w.rng.choice(["volume", "energy", "energy", "gradient"])
    weighted = kind != "gradient" and w.rng.random() < 0.5
    rest = site.input(("rest_volume", "vol0", "volume"), "float32", 0.125, 1.0, grid_bits=3) if weighted else None
    if kind == "volume":
        j = f"wp.determinant({f})"
        site.store(("J", "volume_ratio", "jacobian"), "float32", f"{rest} * {j}" if rest else j, 200.0)
        w.feature("element volume ratio" + (" times rest volume" if rest else ""))
    elif kind == "energy":
        core = Core(site, "neo_hookean_energy", as_func)
        ff = core.param("F", "mat33", f)
        mu, lam = _moduli(site, core)
        j = core.let("J", f"wp.determinant({ff})")
        i1 = core.let("Ic", f"wp.ddot({ff}, {ff})" if w.rng.random() < 0.5 else f"wp.trace(wp.transpose({ff}) @ {ff})")
        alpha = core.let("alpha", f"1.0 + {mu} / {lam}")
        value = core.result(f"0.5 * {mu} * ({i1} - 3.0) + 0.5 * {lam} * ({j} - {alpha}) * ({j} - {alpha})", "float32")
        weighted_value = f"{rest} * {value}" if core.as_func else f"{rest} * ({value})"  # a call, or a sum
        site.store(("energy", "psi", "element_energy"), "float32", weighted_value if rest else value, 1.0e5)
        w.feature("stable neo-Hookean element energy" + (" times rest volume" if rest else ""))
    else:
        site.store(("F_out", "def_grad"), "mat33", f, 6.0)
        site.store(("J", "volume_ratio"), "float32", f"wp.determinant({f})", 200.0)
        w.feature("deformation gradient and its determinant")


# One entry per computation, with the launches that suit it (a grid for fields of tensors).
def rotation_step(site: Site, as_func: bool) -> None:
    """A rigid body's orientation advanced by its angular velocity, as a matrix: R from the
    (normalised) quaternion, R + dt [omega]x R (world-frame omega) or R + dt R [omega]x (body frame),
    then made orthonormal again row by row (Gram-Schmidt: the first row normalised, the second made
    orthogonal to it, the third their cross product), since the step leaves R slightly off a rotation.

    Numerics: the quaternions' components lie in [0.25, 1] (none near zero length); dt |omega| <= 0.11
    (dt <= 1/16, components of omega in [-1, 1]), so the stepped rows stay far from parallel and the
    Gram-Schmidt divisions are well conditioned."""
    w = site.w
    q_in = site.input(("orientation", "rot", "body_q"), "quat", 0.25, 1.0)
    omega_in = site.input(("omega", "ang_vel", "body_w"), "vec3", -1.0, 1.0)
    core = Core(site, w.rng.choice(["integrate_rotation", "rotation_step"]), as_func)
    q, omega = core.param("q", "quat", q_in), core.param("omega", "vec3", omega_in)
    dt = core.param("dt", "float32", w.add_scalar(w.rng.choice(["dt", "time_step", "h"]), "float32",
                                                  w.rng.choice([0.015625, 0.03125, 0.0625])).src)
    r = core.let("R", f"wp.quat_to_matrix(wp.normalize({q}))")
    spin = core.let("W", f"wp.skew({omega})") if w.rng.random() < 0.4 else f"wp.skew({omega})"
    if w.rng.random() < 0.6:
        core.emit(f"{r} = {r} + {dt} * {_matmul(w, spin, r)}")
        w.feature("angular velocity in the world frame")
    else:
        core.emit(f"{r} = {r} + {dt} * {_matmul(w, r, spin)}")
        w.feature("angular velocity in the body frame")
    core.emit(f"{r}[0] = wp.normalize({r}[0])")
    if w.rng.random() < 0.5:
        core.emit(f"{r}[1] = wp.normalize({r}[1] - wp.dot({r}[1], {r}[0]) * {r}[0])")
    else:  # the projection named first
        proj = core.let("proj", f"wp.dot({r}[1], {r}[0])")
        core.emit(f"{r}[1] = wp.normalize({r}[1] - {proj} * {r}[0])")
    core.emit(f"{r}[2] = wp.cross({r}[0], {r}[1])")
    w.output_update_share = 0.0  # a rotation is written, never blended with the old one (no rotation)
    site.store(("R_out", "frames", "body_R"), "mat33", core.result(r, "mat33"), 1.0)
    w.feature("rotation stepped and re-orthonormalised row by row (Gram-Schmidt)")


def neighbour_covariance(site: Site, as_func: bool) -> None:
    """The covariance of a point's K nearest neighbours (given as an index array, K per point), as
    point-cloud normal estimation and shape matching compute it: the neighbours' mean, then the sum of
    the outer products of their offsets from it, entry by entry (`C[r, c] += d[r] * d[c]`, the upper
    triangle only and mirrored, or `wp.outer`), divided by K; written as the matrix, or with its
    trace (the spread).

    Numerics: K is a power of two and the points lie on a 1/64 grid, so the mean is exact; the sums of
    products round alike wherever they are added in the same order."""
    w = site.w
    points_n = w.rng.choice([w.dim[0], 2 * w.dim[0]]) if site.index is None else site.shape[0]
    count = w.rng.choice([4, 8, 16])
    pts = w.add_array(w.rng.choice(["points", "cloud", "positions"]), "vec3", "input", shape=(points_n,),
                      low=-2.0, high=2.0, grid_bits=6)
    w.unused.remove(pts)
    k_const = w.add_constant(w.rng.choice(["K", "NUM_NEIGHBORS", "KNN"]), count).src
    ids = w.add_array(w.rng.choice(["knn", "neighbors", "nbr_ids"]), "int32", "index", shape=(count * points_n,),
                      index_high=points_n - 1)
    me = site.index or w.tid_names[0]
    if w.rng.random() < 0.6:  # the count's inverse kept (read before any loop: see warp_hazards)
        scale = site.local("inv_k", f"1.0 / float({k_const})")
    else:
        scale = repr(1.0 / count)
    mean = site.local("mean", "wp.vec3()")
    j = site.local_name("j")
    with w.block(f"for {j} in range({k_const}):"):
        w.emit(f"{mean} += {pts}[{ids}[{me} * {k_const} + {j}]]")
    w.emit(f"{mean} *= {scale}" if w.rng.random() < 0.5 else f"{mean} = {mean} * {scale}")
    cov = site.local("C", "wp.mat33()")
    form = w.rng.choice(["entries", "upper", "outer"])
    with w.block(f"for {j} in range({k_const}):"):
        d = site.local("d", f"{pts}[{ids}[{me} * {k_const} + {j}]] - {mean}")
        if form == "outer":
            w.emit(f"{cov} += wp.outer({d}, {d})")
        else:
            with w.block("for r in range(3):"):
                with w.block("for c in range(r, 3):" if form == "upper" else "for c in range(3):"):
                    w.emit(f"{cov}[r, c] += {d}[r] * {d}[c]")
    if form == "upper":  # the lower triangle mirrored from the upper one
        with w.block("for r in range(1, 3):"):
            with w.block("for c in range(r):"):
                w.emit(f"{cov}[r, c] = {cov}[c, r]")
        w.feature("covariance accumulated on the upper triangle and mirrored")
    elif form == "entries":
        w.feature("covariance accumulated entry by entry (C[r, c] += d[r] * d[c])")
    else:
        w.feature("covariance from outer products (wp.outer)")
    cov_out = f"{cov} * {scale}"
    if w.rng.random() < 0.4:
        cov = site.local("cov", cov_out)
        site.store(("covariance", "cov_out", "second_moment"), "mat33", cov, 16.0)
        site.store(("spread", "variance_sum"), "float32", f"wp.trace({cov})", 48.0)
        w.feature("trace of the covariance")
    else:
        site.store(("covariance", "cov_out", "second_moment"), "mat33", cov_out, 16.0)
    w.feature(f"neighbourhood covariance ({count} neighbours)")


MATRIX_FORMS: dict[str, Form] = {
    "regularised solve": Form(regularised_solve, PER_ELEMENT),
    "strain": Form(strain, ACCESSES),
    "rotate tensor": Form(rotate_tensor, ACCESSES),
    "quadratic form": Form(quadratic_form, PER_ELEMENT),
    "eigenvalues 2x2": Form(eigen2, ACCESSES),
    "rank-one update": Form(rank_one_update, PER_ELEMENT),
    "normal transform": Form(normal_transform, PER_ELEMENT),
    "power iteration": Form(power_iteration, PER_ELEMENT),
    "tetrahedral element": Form(tet_deformation, ("own", "guarded")),
    "rotation step": Form(rotation_step, PER_ELEMENT),
    "neighbour covariance": Form(neighbour_covariance, ("own", "guarded")),
}


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    form = MATRIX_FORMS[rng.choice(list(MATRIX_FORMS))]
    access = rng.choice(form.accesses)
    w = RichKernelWriter(rng, name, "matrix", seed, launch(rng, access))
    form.build(Site(w, access), rng.random() < FUNC_SHARE)
    return w.finish("Matrix kernel")
