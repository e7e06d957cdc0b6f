"""Scalar parameters: float and int arguments passed by value, each used as its name says: a scale, a
gain and bias, an offset, a blend weight, the two weights of `alpha * x + beta * y`, a threshold, an
epsilon that keeps a square root smooth, a periodic shift, a loop's trip count (sub-steps of a relaxation,
iterations of Heron's square root)."""
from __future__ import annotations

import dataclasses
import random

from synthesis.categories import optimizers
from synthesis.categories.common import add_inputs, add_output, pick_dim, realistic_extras
from synthesis.exprgen import ARITH_OPS, BLEND_WEIGHTS, CONST_Q, WORD, Expr, ExprGen, KernelWriter, join_q
from synthesis.spec import KernelSpec

ROLES = ("scale", "gain and bias", "offset", "blend weight", "alpha and beta", "threshold", "epsilon",
         "clamp range", "mean and std", "frequency and phase", "temperature", "leaky slope", "shrinkage")
# What a role's result goes on to, as kernels chain parameters (one computation, never two side by side;
# session 56): a centred value scaled (normalised), a standard score clipped or its excess over a
# threshold (an anomaly score), a response saturated or turned into a probability at a temperature (a
# calibrated logistic), a wave given an amplitude and an offset, a mix or a weighted sum limited, a soft
# sign given a gain. A scale never follows a scale (`freq * (scale * x)` is one parameter twice).
ROLE_FOLLOWERS: dict[str, tuple[str, ...]] = {
    "offset": ("scale", "clamp range"),
    "scale": ("clamp range", "shrinkage"),
    "gain and bias": ("clamp range", "temperature", "leaky slope"),
    "mean and std": ("clamp range", "threshold"),
    "frequency and phase": ("gain and bias",),
    "blend weight": ("clamp range",),
    "alpha and beta": ("clamp range", "threshold", "shrinkage"),
    "epsilon": ("scale",),
    "leaky slope": ("clamp range",),
}
FIRST_WITH_FOLLOWERS = 0.75  # of kernels: the chain starts from a role ROLE_FOLLOWERS continues
# Roles a kernel never holds alone: `scaled = scale * x` or `x - offset` by itself is one multiply, the
# kernel repeated most often in the category (session 57: 11 of its 56 repeats over three seeds)
NEVER_ALONE = frozenset({"scale", "offset"})
SCALES = [k / 16 for k in range(4, 65) if k != 16]  # 0.25 to 4, never 1
EPSILONS = (1e-6, 1e-4, 1e-3)


def _signed(rng: random.Random, values: list[float]) -> float:
    return rng.choice(values) * rng.choice([1.0, -1.0])


def _within(limit: float) -> list[float]:
    """Sixteenths from 1/16 to 2 below `limit` (1/16 where none is)."""
    return [k / 16 for k in range(1, 33) if k / 16 < limit] or [1 / 16]


def _param(w: KernelWriter, hint: str, value: float) -> Expr:
    """A float parameter used once, for its role: taken out of what expressions draw from."""
    p = w.add_scalar(hint, "float32", value)
    w.retire(p.src)
    return p


def _named(w: KernelWriter, gen: ExprGen, base: Expr | None) -> Expr | None:
    """`base` (named first if it is an expression), or a named value of the kernel's."""
    if base is None:
        return gen.named_value("float32")
    return base if WORD.fullmatch(base.src) else w.assign(base, "t")


def apply_role(w: KernelWriter, gen: ExprGen, role: str, base: Expr | None) -> Expr | None:
    """A local holding `base` (or a value drawn here, for None) put through a parameter in `role`,
    named for what it holds; None when the kernel has no value the role can use."""
    rng = w.rng
    if role in ("scale", "gain and bias", "offset"):
        x = base or gen.named_value("float32")
        if x is None or x.lit:
            return None
        if role == "scale":
            scale = _param(w, "scale", _signed(rng, SCALES))
            value = Expr(f"{scale.src} * {x.operand()}", "float32", scale.mag * x.mag,
                         None if x.q is None else x.q + CONST_Q, atom=False)
            return w.assign(value, "scaled")
        if role == "gain and bias":
            gain = _param(w, "gain", _signed(rng, SCALES))
            # a bias within half the response's swing, so the response takes both signs: a clamp or a
            # leaky rectifier after it sees values on both sides (one past the whole swing made the
            # rectifier's test constant and the clamp's result one number)
            bias = _param(w, "bias", _signed(rng, _within(gain.mag * x.mag / 2)))
            value = Expr(f"{gain.src} * {x.operand()} + {bias.src}", "float32", gain.mag * x.mag + bias.mag,
                         None if x.q is None else x.q + CONST_Q, atom=False)
            return w.assign(value, "response")
        offset = _param(w, "offset", _signed(rng, _within(x.mag / 2)))  # inside the value's range, as a bias
        value = Expr(f"{x.operand()} - {offset.src}", "float32", x.mag + offset.mag, join_q(x.q, CONST_Q), atom=False)
        return w.assign(value, "centered")
    x = _named(w, gen, base)
    if x is None:
        return None
    if role in ("blend weight", "alpha and beta"):
        y = gen.unrelated_value("float32", x)
        if y is None:
            return None
        if role == "blend weight":
            weight = _param(w, "weight", rng.choice(BLEND_WEIGHTS))
            value = Expr(f"{x.src} + {weight.src} * ({y.src} - {x.src})", "float32", max(x.mag, y.mag) + x.mag,
                         None if join_q(x.q, y.q) is None else join_q(x.q, y.q) + CONST_Q, atom=False)
            return w.assign(value, "blended")
        alpha = _param(w, "alpha", _signed(rng, SCALES))
        beta = _param(w, "beta", _signed(rng, SCALES))
        value = Expr(f"{alpha.src} * {x.src} + {beta.src} * {y.src}", "float32", alpha.mag * x.mag + beta.mag * y.mag,
                     None if join_q(x.q, y.q) is None else join_q(x.q, y.q) + CONST_Q, atom=False)
        return w.assign(value, "combined")
    if role == "clamp range":  # limits inside the value's range, so both clamp
        hi = _param(w, "hi", rng.choice([k / 16 for k in range(2, 17) if k / 16 < x.mag] or [x.mag / 2]))
        lo = _param(w, "lo", -hi.mag if rng.random() < 0.5 else 0.0)
        return w.assign(Expr(f"wp.clamp({x.src}, {lo.src}, {hi.src})", "float32", hi.mag, None), "limited")
    if role == "mean and std":  # a standard score
        mean = _param(w, "mean", _signed(rng, [k / 16 for k in range(0, 17)]))
        std = _param(w, "std", rng.choice([0.5, 0.75, 1.25, 2.0]))
        value = Expr(f"({x.src} - {mean.src}) / {std.src}", "float32", (x.mag + mean.mag) / std.mag, None, atom=False)
        return w.assign(value, "z")
    if role == "frequency and phase":
        freq = _param(w, "freq", rng.choice([0.5, 1.5, 2.0, 3.0]))
        phase = _param(w, "phase", rng.choice([0.25, 0.5, 1.0, -0.75]))
        return w.assign(Expr(f"wp.sin({freq.src} * {x.src} + {phase.src})", "float32", 1.0, None), "wave")
    if role == "temperature":  # a logistic with a temperature: soft below 1, sharp above
        temp = _param(w, "temperature", rng.choice([0.25, 0.5, 2.0]))
        value = Expr(f"1.0 / (1.0 + wp.exp(-{x.src} / {temp.src}))", "float32", 1.0, None, atom=False)
        return w.assign(value, "p")
    if role == "leaky slope":  # a leaky ReLU with its negative slope passed in (a neuron after its bias)
        slope = _param(w, rng.choice(["slope", "negative_slope", "leak"]), rng.choice([0.01, 0.1, 0.2, 0.25]))
        value = Expr(f"wp.where({x.src} > 0.0, {x.src}, {slope.src} * {x.src})", "float32", x.mag, None)
        return w.assign(value, "activated")
    if role == "shrinkage":  # soft thresholding (ISTA's proximal step): toward zero by lambda, zero inside
        lam = _param(w, rng.choice(["lam", "shrink", "l1_weight"]), rng.choice([k / 16 for k in range(1, 9) if k / 16 < x.mag / 2] or [0.0625]))
        value = Expr(f"wp.sign({x.src}) * wp.max(wp.abs({x.src}) - {lam.src}, 0.0)", "float32", x.mag, None, atom=False)
        return w.assign(value, "shrunk")
    if role == "threshold":
        # the threshold lies inside the value's range, so both sides of it occur
        threshold = _param(w, "threshold", rng.choice([k / 16 for k in range(-8, 9) if abs(k / 16) < x.mag / 2] or [0.0]))
        if x.exact and rng.random() < 0.5:  # a discontinuity only on an exact value (exprgen's docstring)
            value = Expr(f"wp.where({x.src} > {threshold.src}, {x.src}, 0.0)", "float32", x.mag, join_q(x.q, CONST_Q))
            return w.assign(value, "kept")
        value = Expr(f"wp.max({x.src} - {threshold.src}, 0.0)", "float32", x.mag + threshold.mag, join_q(x.q, CONST_Q))
        return w.assign(value, "excess")
    eps = _param(w, "eps", rng.choice(EPSILONS))
    if rng.random() < 0.5:
        value = Expr(f"{x.src} / wp.sqrt({x.src} * {x.src} + {eps.src})", "float32", 1.0, None, atom=False)
        return w.assign(value, "soft_sign")
    value = Expr(f"wp.sqrt({x.src} * {x.src} + {eps.src})", "float32", x.mag + 0.01, None)
    return w.assign(value, "soft_abs")


def iterate(w: KernelWriter, x: Expr) -> Expr:
    """A loop whose trip count is an argument, as simulation and numerics code passes it: sub-stepped
    relaxation of a state toward `x` (`for s in range(n_substeps): v = v + h * (x - k * v)`), or
    Heron's square root of 1 + x^2 refined `n_iter` times."""
    rng = w.rng
    if rng.random() < 0.5:
        steps = w.add_scalar(rng.choice(["n_substeps", "substeps"]), "int32", rng.choice([2, 4, 8, 10]))
        h = w.add_scalar(rng.choice(["h", "dt_sub"]), "float32", rng.choice([0.0625, 0.125, 0.25]))
        k = w.add_scalar(rng.choice(["stiffness", "rate", "decay"]), "float32", rng.choice([0.5, 1.0, 2.0]))
        for p in (steps, h, k):
            w.retire(p.src)
        v = w.declare(w.fresh("state"), Expr("0.0", "float32", 0.0, 0, lit=True), x.mag / k.mag + x.mag, None)
        with w.block(f"for s in range({steps.src}):"):
            w.emit(f"{v.src} = {v.src} + {h.src} * ({x.operand()} - {k.src} * {v.src})")
        w.note_varying(v.src, x.src)
        w.feature("sub-stepped relaxation (trip count from argument)")
        return v
    steps = w.add_scalar(rng.choice(["n_iter", "iterations"]), "int32", rng.choice([3, 4, 5, 6]))
    w.retire(steps.src)
    a = w.assign(Expr(f"1.0 + {x.src} * {x.src}", "float32", 1.0 + x.mag * x.mag, None, atom=False), "a")
    y = w.declare(w.fresh("root"), a, a.mag, None)
    with w.block(f"for s in range({steps.src}):"):
        w.emit(f"{y.src} = 0.5 * ({y.src} + {a.src} / {y.src})")
    w.note_varying(y.src, x.src)
    w.feature("Heron's square root (trip count from argument)")
    return y


# Session 57: the chain also starts from values a network's layer or a physics kernel computes first, from
# a stream of their own (the kernels that keep the old starts draw exactly what they drew)
NEW_STARTS_SHARE = 0.45


def start_breadth(seed: int) -> random.Random:
    return random.Random(seed ^ 0x5CA1)


def new_start(w: KernelWriter, loads: list[str]) -> Expr:
    """The chain's first value: an input plus a skip connection (`h = x + skip`, a residual block's sum),
    an input weighted per element (`w * x`, a pre-activation), or a vector's length (a speed, a
    distance) that the parameters then shape."""
    rng = w.rng
    kind = rng.choice(["skip", "weighted", "length"])
    x = w.load(rng.choice(loads)) if kind != "length" else None
    if kind == "skip":
        skip = w.load(w.add_array(rng.choice(["skip", "residual_in", "shortcut"]), "float32", "input"))
        w.feature("skip connection summed first")
        return w.assign(Expr(f"{x.src} + {skip.src}", "float32", x.mag + skip.mag, join_q(x.q, skip.q), atom=False),
                        rng.choice(["h", "summed"]))
    if kind == "weighted":
        weight = w.load(w.add_array(rng.choice(["weight", "w_in", "gate_w"]), "float32", "input", low=-1.0, high=1.0))
        w.feature("input weighted per element")
        q = None if x.q is None or weight.q is None else x.q + weight.q
        return w.assign(Expr(f"{weight.src} * {x.src}", "float32", x.mag * weight.mag, q, atom=False),
                        rng.choice(["pre", "z_in", "weighted"]))
    v = w.load(w.add_array(rng.choice(["vel", "velocity", "offset_vec"]), "vec3", "input"))
    w.feature("a vector's length")
    return w.assign(Expr(f"wp.length({v.src})", "float32", 1.8 * v.mag, None), rng.choice(["speed", "dist", "mag"]))


def role_chain(rng: random.Random, count: int) -> list[str]:
    """Up to `count` roles, each one a follower of the one before (ROLE_FOLLOWERS); mostly starting from
    a role that has followers (a lone clamp or threshold is a kernel repeated seed after seed)."""
    roles = [rng.choice(list(ROLE_FOLLOWERS) if rng.random() < FIRST_WITH_FOLLOWERS else ROLES)]
    if roles[0] in NEVER_ALONE:
        count = max(count, 2)
    while len(roles) < count and ROLE_FOLLOWERS.get(roles[-1]):
        roles.append(rng.choice(ROLE_FOLLOWERS[roles[-1]]))
    return roles


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    if optimizers.chooses_optimizer(seed):
        return optimizers.generate(rng, name, seed)
    w = KernelWriter(rng, name, "scalar_param", seed, pick_dim(rng, nd_prob=0.25))
    loads = add_inputs(w, "float32", rng.randint(1, 3))
    gen = ExprGen(w, tuple(rng.sample(ARITH_OPS, 6)), loads=loads)
    realistic_extras(w, gen, loads)
    if start_breadth(seed).random() < NEW_STARTS_SHARE:
        value = new_start(w, loads)
    elif len(w.dim) == 1 and rng.random() < 0.25:
        shift = w.add_scalar("shift", "int32", rng.randint(1, 9))
        w.retire(shift.src)
        value = w.shifted(rng.choice(loads), shift.src)  # the first role's value
    elif len(loads) >= 2 and rng.random() < 0.35:
        # the first role on a residual the kernel computes (`d = a - b`), not on a load as it is (a random
        # expression tree here, `max(a - 0.8125, fx - b)`, was a value no one computes: session 56)
        a, b = (w.load(n) for n in rng.sample(loads, 2))
        value = w.assign(Expr(f"{a.src} - {b.src}", "float32", a.mag + b.mag, join_q(a.q, b.q), atom=False),
                         rng.choice(["d", "r", "residual", "diff"]))
    else:
        value = None
    holds = None  # what `value` is (a role, an iteration): its output is named for it
    for role in role_chain(rng, rng.choice([1, 2, 2, 3, 3, 3])):
        # each role takes the last one's result: `wp.clamp(gain * x + bias, lo, hi)`
        got = apply_role(w, gen, role, value)
        if got is None:
            break
        value, holds = got, role
        # named for its local: a role whose value a later role replaces unread is pruned, and
        # so is its name in the description
        label = f"{role} parameter{'s' if ' and ' in role else ''}"
        w._feature_of_local(got.src, label) if WORD.fullmatch(got.src) else w.feature(label)
    for _ in range(4):  # no role found its values: a scale always does (on a value drawn for it)
        if any(a.role == "scalar" and a.dtype == "float32" for a in w.args):
            break
        # on a value the kernel computes first where no role has taken one (a scale of a bare load, then
        # a clamp or a shrinkage, was the category's most repeated kernel: session 57)
        got = apply_role(w, gen, "scale", value if value is not None else new_start(w, loads))
        if got is not None:
            value, holds = got, "scale"
            w._feature_of_local(got.src, "scale parameter") if WORD.fullmatch(got.src) else w.feature("scale parameter")
            # and what a scale goes on to (NEVER_ALONE)
            follower = rng.choice(ROLE_FOLLOWERS["scale"])
            got = apply_role(w, gen, follower, value)
            if got is not None:
                value, holds = got, follower
                label = f"{follower} parameter"
                w._feature_of_local(got.src, label) if WORD.fullmatch(got.src) else w.feature(label)
    if rng.random() < 0.3:
        # the roles' result relaxed toward or refined by a loop whose trip count is an argument (a loop
        # of its own beside them, on an input, was a second kernel in the first: session 56)
        value = iterate(w, value if value is not None else w.load(rng.choice(loads)))
        holds = "Heron's square root" if value.src.startswith("root") else "relaxation"
    if value is not None and not w.is_read(value.src):
        out = add_output(w, holds=holds)
        # an iteration's result replaces the old one
        w.store(out, gen.meaningful(value), state=holds in ("Heron's square root", "relaxation"))
    spec = w.finish("Scalar-parameter kernel")
    # counted once the kernel is whole: parameters of pruned values are gone from it
    count = sum(a.role == "scalar" for a in spec.args)
    return dataclasses.replace(spec, description=f"{spec.description[:-1]}; {count} scalar parameter"
                                                 f"{'' if count == 1 else 's'})")
