"""Building blocks that several categories share: launch shapes, inputs, helpers, loops."""
from __future__ import annotations

import random

from synthesis.exprgen import CONST_Q, Expr, ExprGen, KernelWriter, fmt_float
from synthesis.spec import KernelSpec


VARIANT_SHARE = 0.4  # of the kernels of a form, those that take one of its variants


def takes_variant(seed: int, salt: int, share: float = VARIANT_SHARE) -> bool:
    """Whether the kernel of `seed` takes the variant named by `salt`: drawn from a stream of the
    variant's own, so a kernel that takes none keeps every draw of the category's stream."""
    return random.Random(seed ^ salt).random() < share

INPUT_HINTS = ["a", "b", "x", "y", "src", "vals", "data", "inp", "u", "w", "p", "q"]
OUTPUT_HINTS = ["out", "result", "dst", "res", "y_out", "output"]


def pick_dim(rng: random.Random, nd_prob: float = 0.0) -> tuple[int, ...]:
    if rng.random() < nd_prob:
        if rng.random() < 0.7:
            return (rng.choice([8, 12, 16, 24]), rng.choice([8, 16, 20, 32]))
        return (rng.choice([4, 6, 8]), rng.choice([4, 5, 8]), rng.choice([4, 6, 8]))
    return (rng.choice([64, 100, 128, 256, 500, 1000, 1024]),)


def add_inputs(w: KernelWriter, dtype: str, count: int, low: float = -2.0, high: float = 2.0,
               grid_bits: int = 10) -> list[str]:
    hints = w.rng.sample(INPUT_HINTS, count)
    return [w.add_array(h, dtype, "input", low=low, high=high, grid_bits=grid_bits) for h in hints]


# What an output holding a named formula or helper's value is called: people name an array after
# what it holds (`rms`, `soft_min`, `loss`), not `out`. One entry per formula (exprgen's
# ARITH_FORMULAS, INT_FORMULAS, MATH_FORMULAS) and per helper a category stores (helpers.HELPERS).
OUTPUT_NAMES: dict[str, tuple[str, ...]] = {
    # float arithmetic
    "affine map": ("scaled", "mapped", "calibrated"),
    "midpoint": ("mid", "midpoint", "centre"),
    "weighted average": ("blended", "mixed", "weighted"),
    "linear interpolation": ("lerped", "interp", "blended"),
    "eased interpolation": ("eased", "blended", "transition"),
    "fade over a lifetime": ("faded", "color_over_life", "current"),
    "alpha over": ("composited", "composite", "over"),
    "squared difference": ("sq_diff", "sq_err", "err2"),
    "sum of squares": ("sum_sq", "energy", "norm2"),
    "polynomial (Horner form)": ("poly", "poly_val", "p_out"),
    "clamp to a range": ("clamped", "limited", "bounded"),
    "cubic smoothstep": ("smooth", "ease", "fade"),
    "relative difference": ("rel_diff", "rel_err", "rel_change"),
    "signed square": ("signed_sq", "sq_signed"),
    "normalized difference": ("contrast", "norm_diff", "ndiff"),
    "soft sign": ("softsign", "squashed", "response"),
    # integer arithmetic
    "integer midpoint": ("mid_idx", "midpoint", "centre_idx"),
    "non-negative remainder": ("wrapped", "slot", "bucket"),
    "round down to a multiple": ("aligned", "floored", "base_idx"),
    "absolute difference": ("abs_diff", "gap", "dist"),
    "bit field": ("field", "bits", "flags"),
    "low bits": ("low_bits", "lane", "sub_idx"),
    "blocks to cover": ("n_blocks", "blocks", "num_tiles"),
    "round up to a multiple": ("padded", "aligned_size", "rounded_up"),
    "rounded division": ("nearest", "bin_idx", "rounded"),
    "fixed-point blend": ("blended", "mixed", "blend_q8"),
    "integer percentage": ("scaled", "pct_scaled", "adjusted"),
    "pack two fields": ("packed", "key", "code"),
    "midpoint without overflow": ("mid", "mid_idx", "probe"),
    "distance on a ring": ("ring_dist", "hops", "wrap_dist"),
    "saturating add": ("saturated", "capped", "sat_value"),
    "shift division": ("quotient", "coarse_idx", "cell_idx"),
    "step on a ring": ("next_slot", "ring_idx", "shifted_slot"),
    "mirrored index": ("mirrored", "reflected_idx", "pingpong"),
    "signed low field": ("nibble", "weight_q4", "signed_field"),
    "fixed-point product": ("prod_q8", "product_fx", "scaled_q8"),
    # math
    "hypotenuse": ("dist", "magnitude", "hyp"),
    "root mean square": ("rms", "rms_out"),
    "polar angle": ("angle", "theta", "phase"),
    "polar to Cartesian": ("cart", "proj", "coord"),
    "exponential decay": ("decayed", "attenuated", "falloff"),
    "oscillation": ("wave", "osc", "signal"),
    # each robust loss by its own name: a math kernel computes up to three beside a loss helper's `loss`
    "Cauchy loss": ("cauchy_loss", "cauchy"),
    "Welsch loss": ("welsch_loss", "welsch"),
    "Geman-McClure loss": ("gm_loss", "geman_mcclure"),
    "wrap to a period": ("wrapped", "x_periodic", "in_box"),
    "amplitude from decibels": ("amplitude", "gain", "linear_gain"),
    "smooth absolute value": ("smooth_abs", "soft_abs", "magnitude"),
    "soft maximum": ("soft_max", "smax"),
    "Reinhard tone map": ("tonemapped", "mapped", "ldr"),
    "damped oscillation": ("ringing", "response", "damped_wave"),
    "circle area": ("area", "disc_area", "cross_section"),
    "GELU activation": ("activated", "gelu_out", "hidden"),
    "angle in degrees": ("angle_deg", "degrees_out", "heading_deg"),
    "distance to the nearest integer": ("grid_dist", "off_grid", "snap_err"),
    "ellipse area": ("area", "ellipse_area", "footprint"),
    "sphere surface area": ("surface_area", "sphere_area", "surface"),
    "sphere volume": ("volume", "sphere_volume", "vol"),
    "circumference": ("circumference", "perimeter", "circ"),
    "cylinder volume": ("volume", "cyl_volume", "capacity"),
    "cell index": ("cell", "cell_idx", "bin_id"),
    "gamma correction": ("corrected", "gamma_out", "encoded"),
    "fractional part": ("frac", "fract", "wrapped"),
    "soft minimum": ("soft_min", "smin"),
    "angle from a cosine": ("angle", "theta", "bend_angle"),
    "angle from a sine": ("elevation", "angle", "phi"),
    "arctangent soft limit": ("limited", "squashed", "soft_limited"),
    "frustum height": ("view_height", "frustum_h", "extent"),
    "round up to a multiple": ("aligned", "rounded_up", "ceil_val"),
    "snap to a grid": ("snapped", "quantized", "on_grid"),
    "fractional part toward zero": ("frac", "remainder", "frac_part"),
    "log2 compression": ("log_mag", "octaves", "compressed"),
    "decibels": ("db", "level_db", "gain_db"),
    "sphere radius from a volume": ("radius", "r_eq", "equiv_radius"),
    # helpers
    "blend": ("blended", "mixed"),
    "squared_error": ("sq_err", "err2", "loss"),
    "huber": ("loss", "huber_loss"),
    "sigmoid": ("prob", "activated", "gate"),
    "softplus": ("activated", "softplus_out"),
    "gaussian": ("falloff", "weight", "kernel_w"),
    "smoothstep": ("smooth", "ease", "fade"),
    "soft_clip": ("clipped", "limited"),
    "log_cosh": ("loss", "log_cosh_loss"),
    "pseudo_huber": ("loss", "robust_loss"),
    "cauchy": ("loss", "cauchy_loss"),
    "noise": ("noise", "height", "density"),
    # combined's last stages
    "loss stage": ("loss_out", "losses", "elem_loss"),
    "soft clip stage": ("clipped_out", "y_clipped"),
    "gate stage": ("gated_out", "y_gated"),
    "blend stage": ("fused", "blended_out"),
    # stencil's operators (stencil.STENCILS, by function name)
    "laplacian": ("u_new", "phi_next", "diffused"),
    "gradient_norm": ("grad_sq", "grad_energy", "grad_mag", "edges", "area_element"),
    "jacobi": ("u_new", "x_next", "p_next"),
    "blur": ("smoothed", "blurred"),
    "static_taps": ("filtered", "result", "out"),
    "advect": ("advected", "q_new"),
    "wave": ("u_next", "u_new"),
    "standing_source": ("forced", "u_src"),
    "tuple_gradient": ("grad_energy", "grad_out", "grad_mag", "edge_strength"),
    # scalar-parameter roles (scalar_param.ROLES) and iterations
    "scale": ("y_scaled", "scaled_out"),
    "gain and bias": ("resp", "response_out"),
    "offset": ("centered_out", "shifted"),
    "blend weight": ("blend_out", "mixed"),
    "alpha and beta": ("axpby", "combined_out"),
    "clamp range": ("clamped", "clipped"),
    "mean and std": ("z_score", "standardized", "normalized"),
    "frequency and phase": ("signal", "wave_out"),
    "temperature": ("prob", "p_out"),
    "leaky slope": ("activated", "leaky_out", "hidden"),
    "shrinkage": ("shrunk", "prox_out", "sparse_code"),
    "threshold": ("masked", "above", "over"),
    "epsilon": ("smoothed", "soft_out"),
    "Heron's square root": ("sqrt_out", "root_out"),
    "relaxation": ("relaxed", "steady"),
}


def add_output(w: KernelWriter, dtype: str = "float32", role: str = "output", holds: str | None = None) -> str:
    """An output array, named after what it `holds` (a key of OUTPUT_NAMES) where that is known."""
    return w.add_array(w.rng.choice(OUTPUT_NAMES[holds] if holds else OUTPUT_HINTS), dtype, role)


def draw_formulas(gen: ExprGen, draw, count: int, out: list[tuple[Expr, str]] | None = None) -> list[tuple[Expr, str]]:
    """Up to `count` formulas from `draw()` (ExprGen.arith_formula, int_formula or math_formula) with their
    names, recorded as features; a draw the kernel cannot build (no second named value) is tried again,
    and so is one of a kind the kernel already holds: two affine maps or two remainders of one value
    side by side (`calibrated`, `calibrated2`) read as filler (session 50: 13% of arithmetic's). `out`:
    the list the formulas are added to, which `draw` may read (a formula that takes an earlier one's result)."""
    out = [] if out is None else out
    for _ in range(3 * count):
        if len(out) == count:
            break
        drawn = draw()
        if drawn is not None and drawn[1] not in {kind for _, kind in out}:
            out.append(drawn)
            gen.w.feature(drawn[1])
    return out


# ---- what real kernels do around the arithmetic ------------------------------------------------
CONSTANT_HINTS = ["SCALE", "DAMPING", "GAIN", "OFFSET", "WEIGHT", "RATE", "BIAS", "FACTOR"]


def add_neighbours(w: KernelWriter, gen: ExprGen, name: str) -> None:
    """Clamped neighbours of `name` along every launch axis become leaves (and are preferred)."""
    for axis in range(len(w.dim)):
        for step in (-1, 1):
            e = w.neighbour(name, axis, step)
            gen.extra.append(e)
            w.unused.append(e.src)


def stencil(w: KernelWriter, gen: ExprGen, name: str) -> Expr:
    """A local computed from the clamped neighbours of `name`: a Laplacian, an average or a gradient."""
    centre = w.load(name)
    if w.arg(name).dtype != "float32":
        raise ValueError("stencils read float arrays")
    axes = range(len(w.dim))
    pairs = [(w.neighbour(name, a, -1), w.neighbour(name, a, 1)) for a in axes]
    kind = w.rng.choice(["laplacian", "average", "gradient"])
    q = centre.q
    if kind == "laplacian":
        terms = " + ".join(f"{lo.src} + {hi.src}" for lo, hi in pairs)
        value = Expr(f"{terms} - {fmt_float(2.0 * len(pairs))} * {centre.src}", "float32", 4 * len(pairs) * centre.mag,
                     None if q is None else q + CONST_Q, atom=False)
    elif kind == "average":
        terms = " + ".join(f"{lo.src} + {hi.src}" for lo, hi in pairs)
        n = 2 * len(pairs)
        exact = n in (2, 4, 8) and q is not None
        value = Expr(f"({terms}) / {fmt_float(float(n))}", "float32", centre.mag, q + 3 if exact else None, atom=False)
    else:
        lo, hi = w.rng.choice(pairs)
        value = Expr(f"0.5 * ({hi.src} - {lo.src})", "float32", centre.mag, None if q is None else q + 1, atom=False)
    local = w.assign(value, {"laplacian": "lap", "average": "avg", "gradient": "grad"}[kind])
    w._feature_of_local(local.src, f"{kind} stencil")  # dropped from the description if pruned unread
    return local


def add_gather(w: KernelWriter, gen: ExprGen, name: str) -> None:
    """An element of `name` chosen through a new index array becomes a (preferred) leaf."""
    idx = w.add_array(w.rng.choice(["idx", "perm", "indices", "src_idx"]), "int32", "index",
                      index_high=w.arg(name).shape[0] - 1)
    e = w.gather(name, idx)
    gen.extra.append(e)
    w.unused.append(e.src)


def add_module_constant(w: KernelWriter) -> Expr:
    """A module-level `wp.constant` the body may read like a literal."""
    value = w.rng.choice([k / 16 for k in range(-32, 33) if k not in (0, 16, -16)])
    c = w.add_constant(w.rng.choice(CONSTANT_HINTS), value)
    c = Expr(c.src, c.type, c.mag, c.q, lit=True)  # a named literal: never computed on alone (`wp.ceil(SCALE)`)
    w.scopes[0][c.src] = c
    w.unused.append(c.src)
    w._feature_of_local(c.src, "wp.constant")
    return c


MASK_HINTS = ("mask", "enabled", "is_active")
FLAG_HINTS = ("flags", "state_flags", "point_flags")
FLAG_BITS = {"ACTIVE": (1, 2), "ENABLED": (1, 4)}  # bit constant -> the bits it may name


def padded_launch(w: KernelWriter, names: tuple[str, ...] | list[str]) -> Expr:
    """`if tid >= n: return`, n (an int parameter named from `names`) a little below the launch size:
    a launch padded to whole blocks. Returns n."""
    n = w.add_scalar(w.rng.choice(names), "int32", w.dim[0] - w.rng.randint(1, max(1, w.dim[0] // 8)), launch_bound=True)
    w.guard_return(f"{w.tid_names[0]} >= {n.src}")
    w.feature("padded launch")
    return n


def one_form_kernel(rng: random.Random, name: str, seed: int, category: str, forms: dict, draws: tuple[str, ...],
                    padded_names: tuple[str, ...], summary: str) -> KernelSpec:
    """A kernel of one form, `forms[rng.choice(draws)](w)`, over a 1-D launch of 256-1,024 threads: its
    results stored as they are (no output turned into an accumulation, no intermediate kept), a launch
    padded to whole blocks in 15% (n named from `padded_names`)."""
    form = rng.choice(draws)
    w = KernelWriter(rng, name, category, seed, (rng.choice([256, 512, 1024]),))
    w.output_update_share = 0.0
    w.intermediate_output_share = 0.0
    if rng.random() < 0.15:
        padded_launch(w, padded_names)
    forms[form](w)
    return w.finish(summary)


def early_return(w: KernelWriter) -> Expr | None:
    """Threads that have nothing to do return at once, the three ways kernels say so:
    `if tid >= n: return`, n a little below the launch size (a padded launch; returns n);
    `if mask[tid] == 0: return` (an int 0/1 per element); or a flag bit tested as warp.sim tests
    its particle flags, `if (flags[tid] & ACTIVE) == 0: return` with `ACTIVE = wp.constant(1)`."""
    how = w.rng.random()
    if how < 0.5 or len(w.dim) != 1:
        n = w.dim[0] - w.rng.randint(1, max(1, w.dim[0] // 8))
        bound = w.add_scalar(w.rng.choice(["n", "count", "num"]), "int32", n, launch_bound=True)
        w.guard_return(f"{w.tid_names[0]} >= {bound.src}")
        w.feature("padded launch")  # guard_return has said "early return"
        return bound
    if how < 0.75:
        mask = w.add_array(w.rng.choice(MASK_HINTS), "int32", "input", low=0, high=1, grid_bits=0)
        w.unused.remove(mask)
        w.guard_return(f"{mask}[{w.own_index()}] == 0")
        w.feature("inactive elements skipped (a mask per element)")
        return None
    hint = w.rng.choice(list(FLAG_BITS))
    bit = w.rng.choice(FLAG_BITS[hint])
    flags = w.add_array(w.rng.choice(FLAG_HINTS), "int32", "input", low=0, high=4 * bit - 1, grid_bits=0)  # half set
    w.unused.remove(flags)
    const = w.add_constant(hint, bit)
    w.guard_return(f"({flags}[{w.own_index()}] & {const.src}) == 0")
    w.feature("inactive elements skipped (a flag bit)")
    return None


def realistic_extras(w: KernelWriter, gen: ExprGen, loads: list[str]) -> None:
    """Now and then: an early return, a module constant, clamped neighbours, a stencil, a gather."""
    rng = w.rng
    floats = [n for n in loads if w.arg(n).dtype == "float32"]
    if len(w.dim) == 1 and rng.random() < 0.15:
        early_return(w)
    if rng.random() < 0.2:
        add_module_constant(w)
    if floats and rng.random() < 0.3:
        if rng.random() < 0.5:
            stencil(w, gen, rng.choice(floats))
        else:
            add_neighbours(w, gen, rng.choice(floats))
    if floats and len(w.dim) == 1 and rng.random() < 0.2:
        add_gather(w, gen, rng.choice(floats))
