"""Multi-way conditionals: the piecewise code people write, one table entry per form.

A kernel holds one piecewise computation drawn from PIECEWISE_FORMS: a saturating ramp, a dead zone,
the Huber loss of a residual, a leaky ReLU or ELU, quantisation into levels, a B-spline or hat weight,
a soft clipping knee, a window mask (a chained comparison), a quadrant label (nested branches), an
upwind difference, a minmod slope limiter (nested), a penalty contact force, a reflection at walls and
stick-slip friction; or a short chain of them that is one computation (FOLLOWERS): the excess past a
dead band soft-clipped, quantised or taken as a loss, a contact's normal force and its friction, a
field's upwind step and its limited slope. Each is written as such code is: the default value
declared first (`float(0.0)`, Warp's idiom for a variable branches assign), then `if`/`elif`/`else`.

Every condition tests an exact value (an input, its magnitude, a difference of two inputs, a step
`x + dt * v` with dt a power of two) against thresholds on a 0.25 grid inside its range: Warp, the
standalone CUDA and float64 Python take the same branch, and every arm is taken on the inputs.
Thresholds are literals, kernel parameters or `wp.constant`s, named for their role.
"""
from __future__ import annotations

import random
from typing import Callable, NamedTuple

from synthesis.categories.common import INPUT_HINTS, early_return, pick_dim
from synthesis.exprgen import CONST_Q, Expr, KernelWriter, fmt_float
from synthesis.sampled_run import degenerate_written

ZERO = Expr("0.0", "float32", 0.0, 0, lit=True)
PERIODIC_SHARE = 0.3  # of kernels: stencils wrap around the array (a periodic domain)
FACES_SHARE = 0.4  # of slope limiters: the reconstructed face values stored (MUSCL), not the slope
ASYMMETRIC_SHARE = 0.3  # of dead zones and soft clips: a lower and an upper edge of their own
NAMED_RATIO_SHARE = 0.3  # of soft clips: the slope beyond the knee a kernel parameter
SINGLE_SHARE = 0.35  # of kernels: one form; the others a chain of forms (FOLLOWERS)
# Variants drawn from Draw.breadth (session 55: a kernel of one form must not be one of a few texts)
HUBER_GRADIENT_SHARE = 0.35  # of Huber losses: the gradient (the residual clipped to delta) stored too
PER_CHANNEL_SHARE = 0.5  # of leaky ReLUs on a 2-D launch: a slope per row (channel) read from an array
CONTROLLER_SHARE = 0.35  # of symmetric dead zones of a difference (an error): times a controller's gain
TANH_KNEE_SHARE = 0.3  # of symmetric soft clips: saturating beyond the knee (tanh), not a lower slope
DRIVE_SHARE = 0.4  # of hysteresis switches: an output the switch drives stored too
RECONSTRUCTION_SHARE = 0.35  # of quantisations: the value each level stands for stored beside the level
GRAVITY_SHARE = 0.4  # of steps between walls: under gravity, the velocity kicked before the position moves
BOTH_AXES_SHARE = 0.5  # of upwind steps on a 2-D launch: along both axes, a velocity component each
CROSSFADE_SHARE = 0.4  # of weights not scaling a value: the blend factor between two values
KEPT_STEP_SHARE = 0.35  # of a chain's earlier results: stored as well as fed on (the final one always is)
DERIVATIVE_SHARE = 0.35  # of activations and cubic B-spline weights: the derivative stored too (a backward pass)
SMOOTH_RAMP_SHARE = 0.35  # of saturating ramps: eased by smoothstep between the edges
NOTCH_SHARE = 0.3  # of window masks: the value kept outside the window (a notch), not inside
RESCALED_SHARE = 0.5  # of symmetric dead zones with a named band: the excess rescaled to span the input's range again
# of symmetric dead zones neither rescaled nor radial: one test of the magnitude, the edge taken off by
# the value's sign (session 58; a stream of its own)
MAGNITUDE_TEST_SHARE = 0.35
RADIAL_SHARE = 0.25  # of dead zones in this category's kernels: a 2-D stick's, radial (session 57; a stream of its own)
BIT_LABEL_SHARE = 0.4  # of quadrant labels: built a bit per axis, not by nested branches
NORMAL_FORCE_SHARE = 0.4  # of friction forces: proportional to a normal force read per element
REGULARISED_SHARE = 0.4  # of friction forces below the stick speed: Coulomb's, ramped linearly to zero
WALLS = ("reflect", "reflect", "stop", "wrap")  # at a wall: mirrored, stopped there, or wrapped round (periodic)
FLUX_FORM_SHARE = 0.25  # of upwind steps: conservative, a flux through each face (velocities on faces)
SPLIT_COURANT_SHARE = 0.35  # of upwind steps: dt and dx parameters of their own, not one Courant factor


class Quantity(NamedTuple):
    """An exact value a condition tests, and the range its values span on the inputs."""

    value: Expr
    low: float
    high: float
    difference: bool = False  # two inputs' difference (an error, a residual), not one input's value


class Result(NamedTuple):
    value: Expr
    hint: str  # the output array's name
    weight: bool = False  # a weight in [0, 1]: may scale another input before it is stored
    state: bool = False  # a new state (an advected field): stored as it is, never added to the old one
    feed: Quantity | None = None  # the value exactly, as a later form of a chain tests it (FEEDS)
    into: str | None = None  # the array it is stored in, where the form read it first (a state it updates)


class Draw:
    """What the forms of one kernel share: the writer, its generic inputs, the named ones forms add."""

    def __init__(self, w: KernelWriter, loads: list[str]) -> None:
        self.w, self.loads = w, loads
        self.named: dict[str, str] = {}  # role hint ("vel") -> the array a form added for it
        self.fed: Quantity | None = None  # an earlier form's result, the next form's quantity (FEEDS)
        self.normal_force: Expr | None = None  # a penalty contact's force: what bounds the friction beside it
        self.vertical = False  # a body moved under gravity: no friction along its axis
        self.used: list[str] = []  # the generic inputs forms have read, in order
        self.vectors = False  # whether a form may give a vector (a radial dead zone): not where a float must follow
        # Variants drawn from a stream of their own (session 50: the commonest forms repeated one
        # structure across seeds), so a kernel that takes none keeps every other draw.
        self.breadth = random.Random(w.seed ^ 0xB2EAD7)
        # one boundary for the kernel's stencils: clamped, or wrapped as on a periodic domain
        self.periodic = self.breadth.random() < PERIODIC_SHARE
        self._axis: int | None = None

    def axis(self) -> int:
        """The axis of the kernel's stencils: the first stencil form's draw, which the others follow (an
        upwind difference along x beside a slope limited along y reconstructs no face of the scheme).
        Each form still draws, so a kernel with one stencil form keeps every draw."""
        drawn = self.rng.randrange(len(self.w.dim))
        if self._axis is None:
            self._axis = drawn
        return self._axis

    def neighbours(self, name: str, axis: int):
        """The left and right neighbours of `name`'s element along `axis`, on the kernel's boundary."""
        return (self.w.neighbour(name, axis, -1, self.periodic), self.w.neighbour(name, axis, 1, self.periodic))

    @property
    def rng(self) -> random.Random:
        return self.w.rng

    def input(self, hint: str, role: str | None = None, low: float = -2.0, high: float = 2.0) -> Expr:
        """The thread's element of the input for `role` (default `hint`), named for `hint` by the first
        form that asks: the forms of a kernel share it (one field, one position, one velocity)."""
        role = role or hint
        if role not in self.named:
            self.named[role] = self.w.add_array(hint, "float32", "input", low=low, high=high, grid_bits=10)
        return self.w.load(self.named[role])

    def quantity(self, kinds: tuple[str, ...] = ("value", "magnitude", "difference"), prefix: str = "diff") -> Quantity:
        """One of the generic inputs, its magnitude, or the difference of two (named first). A later
        form reads an input an earlier one read: a kernel's branches work on one quantity (a value
        clipped, its dead zone, its loss), not on one unrelated input each. In a chain, the earlier
        form's result, as it is (`fed`)."""
        if self.fed is not None:
            fed, self.fed = self.fed, None
            return fed
        rng, w = self.rng, self.w
        name = rng.choice(self.used or self.loads)
        if name not in self.used:
            self.used.append(name)
        first, spec = w.load(name), w.arg(name)
        kinds = tuple(k for k in kinds if k != "difference" or len(self.loads) > 1)
        kind = rng.choice(kinds)
        if kind == "value":
            return Quantity(first, spec.low, spec.high)
        if kind == "magnitude":
            mag = w.assign(Expr(f"wp.abs({first.src})", "float32", first.mag, first.q), prefix="mag")
            return Quantity(mag, 0.0, max(abs(spec.low), abs(spec.high)))
        other = w.load(rng.choice([n for n in self.loads if n != name]))
        diff = w.assign(Expr(f"{first.src} - {other.src}", "float32", first.mag + other.mag, max(first.q, other.q),
                             atom=False), prefix=prefix)
        return Quantity(diff, -diff.mag, diff.mag, difference=True)

    def threshold(self, hint: str, value: float) -> Expr:
        """`value` as a literal, or named for its role: a kernel parameter or a `wp.constant`."""
        return self.thresholds((hint,), (value,))[0]

    def thresholds(self, hints: tuple[str, ...], values: tuple[float, ...]) -> list[Expr]:
        """Thresholds that belong together (a window's edges, two walls) spelled alike: all literals,
        all kernel parameters or all `wp.constant`s."""
        r = self.rng.random()
        w = self.w
        if r < 0.25:
            out = []
            for hint, value in zip(hints, values):
                e = w.add_scalar(hint, "float32", value)
                w.retire(e.src)  # used as its name says, nowhere else
                out.append(Expr(e.src, "float32", abs(value), CONST_Q, lit=True))
            w.feature("scalar parameter")
            return out
        taken = {line.split(" = ")[0].rsplit("_", 1)[0] for line in w.constants}
        if r < 0.4 and not taken & {h.upper() for h in hints}:
            out = [Expr(w.add_constant(h, v).src, "float32", abs(v), CONST_Q, lit=True) for h, v in zip(hints, values)]
            w.feature("wp.constant")
            return out
        return [Expr(fmt_float(v), "float32", abs(v), CONST_Q, lit=True) for v in values]


def is_number(e: Expr) -> bool:
    return e.src.lstrip("-")[:1].isdigit()


def times(c: Expr, x: str) -> str:
    """`c * x` as people write it: `x` itself (without its enclosing parentheses) for a literal 1.0,
    since `1.0 * v` computes nothing."""
    if c.src not in ("1.0", "1"):
        return f"{c.src} * {x}"
    depth = 0
    for k, ch in enumerate(x):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and k < len(x) - 1:
            return x  # `(a) + (b)`: the parentheses do not enclose it all
    return x[1:-1] if x.startswith("(") else x


def minus(x: str, t: Expr) -> str:
    """`x - t` as people write it: `x + 0.5` for t = -0.5, `x` for t = 0."""
    if is_number(t):
        v = float(t.src)
        return x if v == 0.0 else f"{x} + {fmt_float(-v)}" if v < 0.0 else f"{x} - {t.src}"
    return f"{x} - {t.src}"


def plus(x: str, t: Expr) -> str:
    return minus(x, Expr(fmt_float(-float(t.src)), "float32", t.mag, t.q, lit=True)) if is_number(t) else f"{x} + {t.src}"


def negated(t: Expr) -> str:
    return fmt_float(-float(t.src)) if is_number(t) else f"-{t.src}"


def grid(low: float, high: float, count: int, rng: random.Random, above: float | None = None) -> list[float] | None:
    """`count` thresholds in order on a 0.25 grid strictly inside the middle of [low, high] (the
    inputs are spread over the range, so every arm is taken), all above `above` if given."""
    span = high - low
    points = sorted({round((low + span * k / 8) * 4) / 4 for k in range(2, 7)})
    if above is not None:
        points = [p for p in points if p > above]
    if len(points) < count:
        return None
    return sorted(rng.sample(points, count))


def branch(w: KernelWriter, header: str, *assignments: tuple[str, str]) -> None:
    with w.block(header):
        for target, value in assignments:
            w.emit(f"{target} = {value}")
            w.note_varying(target, value)


# ---- the forms ----------------------------------------------------------------------------------
def saturating_ramp(d: Draw) -> list[Result] | None:
    """0 below the lower edge, 1 above the upper, linear between: `(x - lower) / (upper - lower)`."""
    q = d.quantity()
    edges = grid(q.low, q.high, 2, d.rng)
    if edges is None or edges[1] - edges[0] < 1.0 and d.rng.random() < 0.5:
        return None
    lower, upper = d.thresholds(("lower", "upper"), tuple(edges))
    x, w = q.value.src, d.w
    if is_number(lower) and is_number(upper):
        width = edges[1] - edges[0]
        if width < 1.0:
            return None  # `/ 0.75` reads as a multiplication written backwards
        shifted = minus(x, lower)
        rise = shifted if width == 1.0 else f"{shifted if shifted == x else f'({shifted})'} / {fmt_float(width)}"
    else:
        rise = f"({minus(x, lower)}) / ({upper.src} - {lower.src})"
    t = w.declare(w.fresh("ramp"), ZERO, 1.0, None)
    branch(w, f"if {x} >= {upper.src}:", (t.src, "1.0"))
    if d.breadth.random() < SMOOTH_RAMP_SHARE:  # eased: zero slope at both edges
        s = "s" if not w.is_argument("s") else "s_edge"
        with w.block(f"elif {x} > {lower.src}:"):
            w.emit(f"{s} = {rise}")
            w.emit(f"{t.src} = {s} * {s} * (3.0 - 2.0 * {s})")
        w.note_varying(t.src, x)
        w.feature("smoothstep between the edges")
        return [Result(t, "weight", weight=True)]
    branch(w, f"elif {x} > {lower.src}:", (t.src, rise))
    return [Result(t, "weight", weight=True)]


def dead_zone(d: Draw) -> list[Result] | None:
    """0 inside [-t, t], the excess beyond it outside (soft thresholding)."""
    if d.vectors and random.Random(d.w.seed ^ 0xDE4D).random() < RADIAL_SHARE:
        return radial_dead_zone(d)
    q = d.quantity(("value", "difference"))
    points = grid(0.0, q.high, 1, d.rng, above=0.0)
    if points is None:
        return None
    hint = d.rng.choice(["threshold", "band", "deadband"])
    x, w = q.value.src, d.w
    lower = asymmetric_edge(d, q, points[0])
    y = w.declare(w.fresh("shrunk"), ZERO, q.value.mag, q.value.q)
    if lower is not None:  # a band of its own below zero: [lower, upper]
        band = (points[0], lower)
        upper, lower = d.thresholds(("upper", "lower"), band)
        branch(w, f"if {x} > {upper.src}:", (y.src, minus(x, upper)))
        branch(w, f"elif {x} < {lower.src}:", (y.src, minus(x, lower)))
        return [Result(y, "shrunk", feed=exactly(y, q.low - band[1], q.high - band[0], q.value.q))]
    t = d.threshold(hint, points[0])
    # a stick's dead zone: what is left past the band spans the range again (`(x - dz) / (1.0 - dz)`, the
    # band named: a literal band's span would be a literal-only computation, or a division by a fraction)
    if not is_number(t) and d.breadth.random() < RESCALED_SHARE:
        reach = max(abs(q.low), abs(q.high))
        span = w.assign(Expr(f"{fmt_float(reach)} - {t.src}", "float32", reach, CONST_Q, atom=False), prefix="span").src
        y = Expr(y.src, y.type, 1.0, None)
        branch(w, f"if {x} > {t.src}:", (y.src, f"({minus(x, t)}) / {span}"))
        branch(w, f"elif {x} < {negated(t)}:", (y.src, f"({plus(x, t)}) / {span}"))
        w.feature("rescaled past the band")
        return [Result(y, "shrunk")]
    if random.Random(w.seed ^ 0xDE4F).random() < MAGNITUDE_TEST_SHARE:
        # one test of the magnitude; the band's edge taken off toward zero on either side
        branch(w, f"if wp.abs({x}) > {t.src}:", (y.src, f"{x} - wp.sign({x}) * {t.src}"))
        w.feature("one test of the magnitude")
    else:
        branch(w, f"if {x} > {t.src}:", (y.src, minus(x, t)))
        branch(w, f"elif {x} < {negated(t)}:", (y.src, plus(x, t)))
    if q.difference and d.breadth.random() < CONTROLLER_SHARE:
        # an error's dead band, then a proportional controller's gain: no command for a small error
        kp = w.add_scalar(d.breadth.choice(["kp", "gain", "k_p"]), "float32", d.breadth.choice([0.5, 2.0, 4.0])).src
        w.retire(kp)
        w.feature("proportional command past a dead band")
        return [Result(Expr(f"{kp} * {y.src}", "float32", 4.0 * y.mag, None, atom=False), "command")]
    return [Result(y, "shrunk", feed=exactly(y, q.low + points[0], q.high - points[0], q.value.q))]


def radial_dead_zone(d: Draw) -> list[Result]:
    """A 2-D stick's dead zone, as games filter a gamepad: nothing inside a radius, the rest of the disc
    rescaled to span it again (the direction kept), through a response curve (linear, quadratic or
    cubic: fine control near the centre), and at times saturated outside the unit circle. The stick is
    a vec2 per element or its two axes in arrays of their own. The branches test the squared length,
    exact on the inputs' grid (conditions see exact values only); the result is continuous across
    both edges."""
    w, rng = d.w, random.Random(d.w.seed ^ 0xDE4E)
    if rng.random() < 0.6:
        s = w.load(w.add_array(rng.choice(["stick", "joystick", "axis_input"]), "vec2", "input", low=-1.0, high=1.0,
                               grid_bits=6))
    else:  # the axes as the device reports them, one array each
        ax, ay = (w.load(w.add_array(name, "float32", "input", low=-1.0, high=1.0, grid_bits=6))
                  for name in rng.choice([("axis_x", "axis_y"), ("stick_x", "stick_y"), ("lx", "ly")]))
        s = w.assign(Expr(f"wp.vec2({ax.src}, {ay.src})", "vec2", 1.0, 6), prefix="stick_v")
    len2 = w.assign(Expr(f"wp.dot({s.src}, {s.src})", "float32", 2.0, 12), prefix="len2")
    radius = rng.choice([0.125, 0.25, 0.375])
    dz = d.threshold(rng.choice(["deadzone", "inner_radius", "dead_radius"]), radius)
    if is_number(dz):  # a literal radius: its square and its complement written out
        inner2, span = fmt_float(radius * radius), fmt_float(1.0 - radius)
    else:
        inner2, span = f"{dz.src} * {dz.src}", f"(1.0 - {dz.src})"
    out = w.declare(w.fresh("filtered"), Expr("wp.vec2(0.0)", "vec2", 0.0, 0), 1.5, None)
    outer = rng.random() < 0.5
    if outer:  # past the rim: the unit direction
        branch(w, f"if {len2.src} > 1.0:", (out.src, f"{s.src} / wp.sqrt({len2.src})"))
    response = rng.choice(["linear", "quadratic", "cubic"])
    with w.block(f"{'elif' if outer else 'if'} {len2.src} > {inner2}:"):
        mag, t = w.fresh("mag"), w.fresh("t")
        w.emit(f"{mag} = wp.sqrt({len2.src})")
        w.emit(f"{t} = ({mag} - {dz.src}) / {span}")
        curve = {"linear": t, "quadratic": f"({t} * {t})", "cubic": f"({t} * {t} * {t})"}[response]
        w.emit(f"{out.src} = ({s.src} / {mag}) * {curve}")
        w.note_varying(out.src, s.src)
    w.feature("radial dead zone of a 2-D stick" + (", saturated past the rim" if outer else "")
              + ("" if response == "linear" else f"; {response} response curve"))
    return [Result(Expr(out.src, "vec2", 1.5, None), rng.choice(["stick_out", "filtered_stick", "axis_out"]))]


def exactly(value: Expr, low: float, high: float, q: int | None) -> Quantity | None:
    """`value` as a later form of a chain tests it: its range on the inputs (zero always inside: a
    dead band's or a knee's middle keeps the value or zero) and the grid its values lie on (2**-q,
    thresholds on CONST_Q's included); None where it is rounded somewhere."""
    if q is None:
        return None
    return Quantity(Expr(value.src, value.type, max(abs(low), abs(high)), max(q, CONST_Q)), min(low, 0.0), max(high, 0.0))


def asymmetric_edge(d: Draw, q: Quantity, upper: float) -> float | None:
    """A lower edge below zero of another magnitude than `upper` (ASYMMETRIC_SHARE of draws), on the
    thresholds' grid of the quantity's range; None for a symmetric band."""
    if d.breadth.random() >= ASYMMETRIC_SHARE:
        return None
    points = [p for p in (grid(0.0, -q.low, 3, d.breadth, above=0.0) or []) if p != upper]
    return -d.breadth.choice(points) if points else None


def huber_loss(d: Draw) -> list[Result] | None:
    """0.5 r^2 for |r| <= delta, delta (|r| - delta / 2) beyond: quadratic near zero, linear outside."""
    # a residual's loss mostly (a value's, as a penalty on it, at times)
    q = d.quantity(("value", "difference", "difference"), prefix="resid")
    w = d.w
    points = grid(0.0, q.high, 1, d.rng, above=0.0)
    if points is None:
        return None
    delta = d.threshold("delta", points[0])
    r = q.value.src
    mag = w.assign(Expr(f"wp.abs({r})", "float32", q.value.mag, q.value.q), prefix="mag")
    half = fmt_float(points[0] / 2) if is_number(delta) else f"0.5 * {delta.src}"
    loss = w.declare(w.fresh("loss"), ZERO, 0.5 * q.value.mag ** 2 + 1.0, None)
    if d.breadth.random() < HUBER_GRADIENT_SHARE:  # the loss and its gradient, r clipped to [-delta, delta]
        grad = w.declare(w.fresh("grad"), ZERO, max(q.value.mag, delta.mag), None)
        branch(w, f"if {mag.src} <= {delta.src}:", (loss.src, f"0.5 * {r} * {r}"), (grad.src, r))
        branch(w, "else:", (loss.src, times(delta, f"({mag.src} - {half})")), (grad.src, times(delta, f"wp.sign({r})")))
        w.feature("Huber loss and its gradient")
        return [Result(loss, "loss"), Result(grad, "grad")]
    branch(w, f"if {mag.src} <= {delta.src}:", (loss.src, f"0.5 * {r} * {r}"))
    branch(w, "else:", (loss.src, times(delta, f"({mag.src} - {half})")))
    w.feature("Huber loss")
    return [Result(loss, "loss")]


def activation(d: Draw) -> list[Result] | None:
    """Leaky ReLU (`alpha * x` below zero) or ELU (`alpha * (wp.exp(x) - 1.0)`), x itself above."""
    q = d.quantity(("value", "difference"))
    x, w = q.value.src, d.w
    elu = d.rng.random() < 0.5
    # a leaky slope well below one (1.0 would be the identity); ELU's scale up to one
    alpha = d.threshold("alpha", d.rng.choice([0.5, 1.0] if elu else [0.01, 0.05, 0.1, 0.2, 0.25]))
    if not elu and len(w.dim) == 2 and d.breadth.random() < PER_CHANNEL_SHARE:
        # PReLU: a learned slope per channel, the launch's rows (an NC layout)
        slopes = w.add_array(d.breadth.choice(["slopes", "alpha_c", "prelu_weight"]), "float32", "input",
                             shape=(w.dim[0],), low=0.0, high=0.25, grid_bits=8, per_row=True)
        alpha = w.load(slopes, index=w.tid_names[0])
        w.feature("a slope per channel (PReLU)")
    below = times(alpha, f"(wp.exp({x}) - 1.0)") if elu else times(alpha, x)
    act = w.declare(w.fresh("act"), ZERO, q.value.mag, None)
    w.feature("ELU" if elu else "leaky ReLU")
    if d.breadth.random() < DERIVATIVE_SHARE:  # the derivative a backward pass multiplies by
        slope = w.declare(w.fresh("d_act"), ZERO, 1.0 + alpha.mag, None)
        # ELU's derivative below zero, alpha * exp(x), is the activation plus alpha
        below_slope = f"{act.src} + {alpha.src}" if elu else alpha.src
        branch(w, f"if {x} > 0.0:", (act.src, x), (slope.src, "1.0"))
        branch(w, "else:", (act.src, below), (slope.src, below_slope))
        w.feature("its derivative")
        return [Result(act, "activated"), Result(slope, "act_grad")]
    branch(w, f"if {x} > 0.0:", (act.src, x))
    branch(w, "else:", (act.src, below))
    return [Result(act, "activated")]


def quantize(d: Draw) -> list[Result] | None:
    """An integer level: how many of two or three ordered thresholds the value reaches."""
    q = d.quantity()
    count = d.rng.randint(2, 3)
    points = grid(q.low, q.high, count, d.rng)
    if points is None:
        return None
    x, w = q.value.src, d.w
    level = w.fresh("level")
    # and at times the value each level stands for (a quantiser's reconstruction: its interval's middle)
    edges = [q.low] + points + [q.high]
    centres = [fmt_float(round((edges[k] + edges[k + 1]) * 4) / 8) for k in range(count + 1)]
    snapped = None
    if d.breadth.random() < RECONSTRUCTION_SHARE:
        snapped = w.fresh("snapped")
    if d.rng.random() < 0.5:  # from the top: `if x >= t3: level = 3 elif x >= t2: ...`
        op = d.rng.choice([">=", ">"])
        var = w.declare(level, Expr("0", "int32", 0.0, 0, lit=True), float(count), 0)
        if snapped is not None:
            snapped = w.declare(snapped, Expr(centres[0], "float32", 0.0, CONST_Q, lit=True), max(abs(q.low), abs(q.high)), None)
        for k in range(count, 0, -1):
            branch(w, f"{'if' if k == count else 'elif'} {x} {op} {fmt_float(points[k - 1])}:", (var.src, str(k)),
                   *([(snapped.src, centres[k])] if snapped is not None else []))
    else:  # from the bottom, the default the top level
        op = d.rng.choice(["<", "<="])
        var = w.declare(level, Expr(str(count), "int32", float(count), 0, lit=True), float(count), 0)
        if snapped is not None:
            snapped = w.declare(snapped, Expr(centres[count], "float32", 0.0, CONST_Q, lit=True),
                                max(abs(q.low), abs(q.high)), None)
        for k in range(count):
            branch(w, f"{'if' if k == 0 else 'elif'} {x} {op} {fmt_float(points[k])}:", (var.src, str(k)),
                   *([(snapped.src, centres[k])] if snapped is not None else []))
    w.feature("piecewise thresholds")
    label = Result(var, d.rng.choice(["label", "level", "bin_id"]), state=True)  # a class: never summed
    if snapped is not None:
        w.note_varying(snapped.src, x)
        w.feature("the value each level stands for")
        return [label, Result(snapped, "snapped", state=True)]
    return [label]


def spline_weight(d: Draw) -> list[Result] | None:
    """The cubic B-spline kernel of the distance q (in units of the support: particle-in-cell and SPH
    weights), or a hat `1 - q` inside q < 1."""
    q = d.quantity(("value", "difference"))
    w = d.w
    centre = d.rng.choice([0.0, 0.25, 0.5, -0.5])
    spline = d.rng.random() < 0.6
    # the distance reaches well past the support (2 units, or 1 for the hat) on the inputs: the
    # outermost test is no test otherwise
    reach = max(abs(q.low - centre), abs(q.high - centre))
    scale = d.rng.choice([s for s in (1.0, 2.0) if reach * s >= (2.5 if spline else 1.25)])
    diff = minus(q.value.src, Expr(fmt_float(centre), "float32", abs(centre), CONST_Q, lit=True))
    text = f"wp.abs({diff})" + ("" if scale == 1.0 else f" * {fmt_float(scale)}")
    dist = w.assign(Expr(text, "float32", (q.value.mag + abs(centre)) * scale, q.value.q + 2, atom=scale == 1.0), prefix="dist")
    s = dist.src
    wgt = w.declare(w.fresh("wgt"), ZERO, 1.0, None)
    if spline:
        # the derivative in the distance, as an SPH force or a particle-in-cell gradient needs it
        slope = w.declare(w.fresh("dwdq"), ZERO, 1.0, None) if d.breadth.random() < DERIVATIVE_SHARE else None
        with w.block(f"if {s} < 1.0:"):
            w.emit(f"{wgt.src} = (4.0 + {s} * {s} * (3.0 * {s} - 6.0)) / 6.0")
            if slope is not None:
                w.emit(f"{slope.src} = 0.5 * {s} * (3.0 * {s} - 4.0)")
        t = "t" if not w.is_argument("t") else "t_rest"  # a local never takes a parameter's name
        with w.block(f"elif {s} < 2.0:"):
            w.emit(f"{t} = 2.0 - {s}")
            w.emit(f"{wgt.src} = {t} * {t} * {t} / 6.0")
            if slope is not None:
                w.emit(f"{slope.src} = -0.5 * {t} * {t}")
        w.note_varying(wgt.src, s)
        w.feature("cubic B-spline weight")
        if slope is not None:
            w.note_varying(slope.src, s)
            w.feature("its derivative")
            return [Result(wgt, "weight", weight=True), Result(slope, "weight_grad")]
    else:
        branch(w, f"if {s} < 1.0:", (wgt.src, f"1.0 - {s}"))
        w.feature("hat weight")
    return [Result(wgt, "weight", weight=True)]


def soft_clip(d: Draw) -> list[Result] | None:
    """x inside [-knee, knee]; beyond it the excess enters at a lower slope, as a compressor does."""
    q = d.quantity(("value", "difference"))
    points = grid(0.0, q.high, 1, d.rng, above=0.0)
    if points is None:
        return None
    lower = asymmetric_edge(d, q, points[0])
    knee = d.threshold("knee", points[0]) if lower is None else None
    ratio = d.rng.choice([0.125, 0.25, 0.5])
    x, w = q.value.src, d.w
    slope = fmt_float(ratio)
    saturating = knee is not None and d.breadth.random() < TANH_KNEE_SHARE
    if not saturating and d.breadth.random() < NAMED_RATIO_SHARE:  # a compressor's ratio set by its caller
        slope = w.add_scalar(d.breadth.choice(["ratio", "gain_above", "slope_above"]), "float32", ratio).src
        w.retire(slope)
    y = w.declare(w.fresh("clipped"), q.value, q.value.mag, None)
    # beyond a knee the excess is scaled by a power of two: the result stays on a grid 2**-3 finer at most
    fine = None if q.value.q is None else max(q.value.q, CONST_Q) + 3
    if knee is None:  # knees of their own above and below
        edges = (points[0], lower)
        high, low = d.thresholds(("knee_high", "knee_low"), edges)
        branch(w, f"if {x} > {high.src}:", (y.src, f"{high.src} + {slope} * ({minus(x, high)})"))
        branch(w, f"elif {x} < {low.src}:", (y.src, f"{low.src} + {slope} * ({minus(x, low)})"))
        return [Result(y, "clipped", feed=exactly(y, edges[1] + ratio * (q.low - edges[1]),
                                                   edges[0] + ratio * (q.high - edges[0]), fine))]
    if saturating:  # saturating beyond the knee: at most `room` more, as a tape does
        room = d.breadth.choice([1.0, 2.0])
        def saturate(excess: str) -> str:
            return f"wp.tanh({excess})" if room == 1.0 else f"2.0 * wp.tanh(({excess}) / 2.0)"
        branch(w, f"if {x} > {knee.src}:", (y.src, f"{knee.src} + {saturate(minus(x, knee))}"))
        branch(w, f"elif {x} < {negated(knee)}:", (y.src, f"{saturate(plus(x, knee))} - {knee.src}"))
        w.feature("saturating (tanh) beyond the knee")
        return [Result(y, "clipped")]
    branch(w, f"if {x} > {knee.src}:", (y.src, f"{knee.src} + {slope} * ({minus(x, knee)})"))
    branch(w, f"elif {x} < {negated(knee)}:", (y.src, f"{slope} * ({plus(x, knee)}) - {knee.src}"))
    return [Result(y, "clipped", feed=exactly(y, -points[0] + ratio * (q.low + points[0]),
                                               points[0] + ratio * (q.high - points[0]), fine))]


def window_mask(d: Draw) -> list[Result] | None:
    """A value kept where the test quantity lies in a window (`lower <= x <= upper`), zero elsewhere."""
    if len(d.loads) < 2:
        return None
    q = d.quantity(("value", "magnitude"))
    edges = grid(q.low, q.high, 2, d.rng)
    if edges is None:
        return None
    lower, upper = d.thresholds(("lower", "upper"), tuple(edges))
    kept_name = d.rng.choice([n for n in d.loads if d.w.load(n).src != q.value.src])
    kept = d.w.load(kept_name)
    w = d.w
    m = w.declare(w.fresh("masked"), ZERO, kept.mag, None)
    if d.breadth.random() < NOTCH_SHARE:  # a notch: the band rejected, the rest kept
        branch(w, f"if {q.value.src} < {lower.src} or {q.value.src} > {upper.src}:", (m.src, kept.src))
        w.feature("kept outside a band (notch)")
    else:
        branch(w, f"if {lower.src} <= {q.value.src} <= {upper.src}:", (m.src, kept.src))
        w.feature("chained comparison")
    spec = w.arg(kept_name)
    return [Result(m, "masked", feed=exactly(m, spec.low, spec.high, kept.q))]


def quadrant(d: Draw) -> list[Result] | None:
    """Which quadrant around (cx, cy) a pair of values lies in, with nested branches."""
    if len(d.loads) < 2:
        return None
    if d.used:  # a pair holding the quantity an earlier form works on
        a = d.rng.choice(d.used)
        b = d.rng.choice([n for n in d.loads if n != a])
    else:
        a, b = d.rng.sample(d.loads, 2)
    d.used += [n for n in (a, b) if n not in d.used]
    x, y = d.w.load(a), d.w.load(b)
    w = d.w
    cx, cy = d.thresholds(("cx", "cy"), (d.rng.choice([-0.5, 0.0, 0.5]), d.rng.choice([-0.5, 0.0, 0.5])))
    region = w.declare(w.fresh("quadrant"), Expr("0", "int32", 0.0, 0, lit=True), 3.0, 0)
    if d.breadth.random() < BIT_LABEL_SHARE:  # a bit per axis: 0..3 as x's side + 2 * y's side
        with w.block(f"if {x.src} >= {cx.src}:"):
            w.emit(f"{region.src} += 1")
        with w.block(f"if {y.src} >= {cy.src}:"):
            w.emit(f"{region.src} += 2")
        w.note_varying(region.src, x.src)
        w.feature("a bit per axis")
        return [Result(region, "quadrant_id")]
    with w.block(f"if {x.src} >= {cx.src}:"):
        branch(w, f"if {y.src} < {cy.src}:", (region.src, "3"))
    with w.block("else:"):
        branch(w, f"if {y.src} >= {cy.src}:", (region.src, "1"))
        branch(w, "else:", (region.src, "2"))
    w.note_varying(region.src, x.src)
    w.feature("nested branches")
    return [Result(region, "quadrant_id")]


def upwind_difference(d: Draw) -> list[Result] | None:
    """First-order upwind advection: the one-sided difference on the side the flow comes from."""
    w = d.w
    axis = d.axis()
    field = d.input(d.rng.choice(["u", "phi", "rho", "temp"]), "field")
    name = field.src.rsplit("_v", 1)[0]
    both = len(w.dim) == 2 and d.breadth.random() < BOTH_AXES_SHARE
    # along both axes, each velocity component named for its axis (the last axis is x)
    component = (("vel_x", "vx") if axis == 1 else ("vel_y", "vy"))
    vel = d.input(d.breadth.choice(component) if both else "vel", "vel")
    left, right = d.neighbours(name, axis)
    # the Courant factor dt / dx: a literal, or named for its role (a parameter, a constant); or the
    # step and the spacing as the caller has them, two parameters
    if d.breadth.random() < SPLIT_COURANT_SHARE:
        step, dx = d.breadth.choice([(0.01, 0.1), (0.025, 0.25), (0.005, 0.05), (0.02, 0.2)])
        params = [w.add_scalar(h, "float32", v).src for h, v in ((d.breadth.choice(["dt", "time_step"]), step),
                                                                  (d.breadth.choice(["dx", "spacing", "h"]), dx))]
        for param in params:
            w.retire(param)
        dt = Expr(f"{params[0]} / {params[1]}", "float32", step / dx, None, atom=False)
    else:
        dt = d.threshold(d.rng.choice(["courant", "dt_over_dx", "cfl"]), d.rng.choice([0.05, 0.1, 0.125, 0.25]))
    if both:
        # a 2-D field advected by a velocity field: a one-sided difference per axis, each upwind of its component
        v_other = d.input(("vy" if vel.src.startswith("vx") else "vel_y") if axis == 1 else
                          ("vx" if vel.src.startswith("vy") else "vel_x"), "vel_other")
        terms = []
        for ax, v in ((axis, vel), (1 - axis, v_other)):
            lo, hi = d.neighbours(name, ax)
            du = w.declare(w.fresh(f"du_{'x' if ax == 1 else 'y'}"), ZERO, 2 * field.mag, field.q)
            branch(w, f"if {v.src} > 0.0:", (du.src, f"{field.src} - {lo.src}"))
            branch(w, "else:", (du.src, f"{hi.src} - {field.src}"))
            terms.append(f"{v.src} * {du.src}")
        new = Expr(f"{field.src} - {dt.src} * ({terms[0]} + {terms[1]})", "float32",
                   field.mag + dt.mag * 4 * vel.mag * field.mag, None, atom=False)
        w.feature("upwind difference along both axes")
        return [Result(new, "advected", state=True)]
    if d.breadth.random() < FLUX_FORM_SHARE:
        # finite volumes: the velocity lives on the faces (vel[i] on the face right of cell i), each
        # face's flux takes the field from the cell upwind of it, the cell keeps what flows in less out
        vel_left = d.neighbours(vel.src.rsplit("_v", 1)[0], axis)[0]
        fluxes = []
        before, after = w.NEIGHBOUR_WORDS[len(w.tid_names)][axis]  # the faces named as the neighbours are
        for face, (v, up, down) in ((after, (vel, field, right)), (before, (vel_left, left, field))):
            flux = w.declare(w.fresh(f"flux_{face}"), ZERO, vel.mag * field.mag, None)
            branch(w, f"if {v.src} > 0.0:", (flux.src, f"{v.src} * {up.src}"))
            branch(w, "else:", (flux.src, f"{v.src} * {down.src}"))
            fluxes.append(flux)
        new = Expr(f"{field.src} - {dt.src} * ({fluxes[0].src} - {fluxes[1].src})", "float32",
                   field.mag + dt.mag * 2 * fluxes[0].mag, None, atom=False)
        w.feature("upwind fluxes through the faces")
        return [Result(new, "advected", state=True)]
    if d.rng.random() < 0.35:  # the whole update written in each branch
        new = w.declare(w.fresh("advected"), ZERO, field.mag + vel.mag * 2 * field.mag, None)
        branch(w, f"if {vel.src} > 0.0:", (new.src, f"{field.src} - {dt.src} * {vel.src} * ({field.src} - {left.src})"))
        branch(w, "else:", (new.src, f"{field.src} - {dt.src} * {vel.src} * ({right.src} - {field.src})"))
        w.note_varying(new.src, field.src)
        w.feature("upwind difference")
        return [Result(new, "advected", state=True)]
    du = w.declare(w.fresh("du"), ZERO, 2 * field.mag, field.q)
    branch(w, f"if {vel.src} > 0.0:", (du.src, f"{field.src} - {left.src}"))
    branch(w, "else:", (du.src, f"{right.src} - {field.src}"))
    new = Expr(f"{field.src} - {dt.src} * {vel.src} * {du.src}", "float32", field.mag + vel.mag * du.mag, None, atom=False)
    w.feature("upwind difference")
    return [Result(new, "advected", state=True)]


def minmod_slope(d: Draw) -> list[Result] | None:
    """The minmod slope limiter: zero at an extremum, else the one-sided slope of least magnitude."""
    w = d.w
    axis = d.axis()
    field = d.input(d.rng.choice(["u", "phi", "rho", "q"]), "field")
    name = field.src.rsplit("_v", 1)[0]
    left, right = d.neighbours(name, axis)
    dl = w.assign(Expr(f"{field.src} - {left.src}", "float32", 2 * field.mag, field.q, atom=False), prefix="dl")
    dr = w.assign(Expr(f"{right.src} - {field.src}", "float32", 2 * field.mag, field.q, atom=False), prefix="dr")
    limiter = d.rng.choice(["minmod", "minmod", "van Leer", "monotonized central"])
    if d.breadth.random() < 0.2:  # the most compressive of the TVD limiters
        limiter = "superbee"
    if limiter in ("van Leer", "monotonized central"):  # the central slope: (dl + dr) / 2, from the neighbours themselves
        dc = w.assign(Expr(f"0.5 * ({right.src} - {left.src})", "float32", 2 * field.mag, None, atom=False), prefix="dc")
    slope = w.declare(w.fresh("slope"), ZERO, dl.mag if limiter in ("minmod", "van Leer") else 2 * dl.mag,
                      dl.q if limiter == "minmod" else None)
    if limiter == "minmod":
        with w.block(f"if {dl.src} * {dr.src} > 0.0:"):
            branch(w, f"if wp.abs({dl.src}) < wp.abs({dr.src}):", (slope.src, dl.src))
            branch(w, "else:", (slope.src, dr.src))
        w.feature("nested branches")
    elif limiter == "van Leer":  # the harmonic mean of the one-sided slopes, 2 dl dr / (dl + dr) (same sign: dc != 0)
        branch(w, f"if {dl.src} * {dr.src} > 0.0:", (slope.src, f"{dl.src} * {dr.src} / {dc.src}"))
    elif limiter == "superbee":  # the larger of min(2|dl|, |dr|) and min(|dl|, 2|dr|), with their sign
        with w.block(f"if {dl.src} * {dr.src} > 0.0:"):
            a, b = f"wp.abs({dl.src})", f"wp.abs({dr.src})"
            w.emit(f"{slope.src} = wp.sign({dl.src}) * wp.max(wp.min(2.0 * {a}, {b}), wp.min({a}, 2.0 * {b}))")
            w.note_varying(slope.src, dl.src)
    else:  # MC: the least of twice each one-sided slope and the central one, with their sign
        branch(w, f"if {dl.src} * {dr.src} > 0.0:",
               (slope.src, f"wp.sign({dc.src}) * wp.min(wp.min(2.0 * wp.abs({dl.src}), 2.0 * wp.abs({dr.src})), "
                           f"wp.abs({dc.src}))"))
    w.note_varying(slope.src, dl.src)
    w.feature(f"{limiter} limiter")
    if d.breadth.random() < FACES_SHARE:  # MUSCL: the limited slope reconstructs the cell's face values
        half = Expr(f"0.5 * {slope.src}", "float32", slope.mag / 2, None, atom=False)
        # the faces named as the neighbours along the axis are (face_up, face_down along a 2-D launch's rows)
        before, after = w.NEIGHBOUR_WORDS[len(w.tid_names)][axis]
        faces = [Result(Expr(f"{field.src} - {half.src}", "float32", field.mag + half.mag, None, atom=False),
                        f"face_{before}", state=True),
                 Result(Expr(f"{field.src} + {half.src}", "float32", field.mag + half.mag, None, atom=False),
                        f"face_{after}", state=True)]
        w.feature("face values reconstructed from the limited slope (MUSCL)")
        return faces if d.breadth.random() < 0.6 else [Result(slope, "slope")] + faces
    return [Result(slope, "slope")]


def contact_force(d: Draw) -> list[Result] | None:
    """A penalty contact: a spring-damper force while a body is below the ground, zero above it."""
    w = d.w
    height, vel = d.input(d.rng.choice(["height", "pos_y", "y"]), "position"), d.input("vel")
    ground = d.threshold("ground", d.rng.choice([-1.0, -0.5, 0.0, 0.5]))
    below = f"-{height.src}" if is_number(ground) and float(ground.src) == 0.0 else f"{ground.src} - {height.src}"
    depth = w.assign(Expr(below, "float32", ground.mag + height.mag, height.q, atom=False), prefix="depth")
    ke = d.threshold("stiffness", d.rng.choice([10.0, 50.0, 100.0, 200.0]))
    kd = d.threshold("damping", d.rng.choice([0.5, 1.0, 2.0, 5.0]))
    force = w.declare(w.fresh("force"), ZERO, ke.mag * depth.mag + kd.mag * vel.mag, None)
    branch(w, f"if {depth.src} > 0.0:", (force.src, f"{ke.src} * {depth.src} - {times(kd, vel.src)}"))
    w.feature("penalty contact")
    d.normal_force = force
    return [Result(force, "force")]


def reflect_at_walls(d: Draw) -> list[Result] | None:
    """One explicit step `x + dt * v`, reflected at the walls lower and upper, the velocity reversed
    (and scaled by a restitution below one) where it hits."""
    w = d.w
    position = d.rng.choice(["pos", "x", "px"])
    pos, vel = d.input(position, "position"), d.input("vel")
    pos_out = f"{position}_out"  # `px` steps to `px_out`, not to `pos_out`
    dt = d.rng.choice([0.125, 0.25, 0.5])
    lo, hi = d.rng.choice([(-1.5, 1.5), (-1.0, 1.0), (-1.75, 1.25), (-1.25, 1.75)])
    lower, upper = d.thresholds(("lower", "upper"), (lo, hi))
    e = d.rng.choice([1.0, 0.9, 0.8, 0.5])
    if d.breadth.random() < GRAVITY_SHARE:  # semi-implicit Euler under gravity: the velocity first, then the position
        g = d.threshold("gravity", d.breadth.choice([-0.5, -1.0, -2.0]))
        kick = Expr(f"{vel.src} + {fmt_float(dt)} * {g.src}", "float32", vel.mag + 2.0 * dt, 10, atom=False)
        v_new = w.declare(w.fresh("v_new"), kick, kick.mag, 10)
        vel = Expr(v_new.src, "float32", kick.mag, 10)
        w.feature("gravity")
        d.vertical = True
    else:
        v_new = None
    step = Expr(f"{pos.src} + {fmt_float(dt)} * {vel.src}", "float32", pos.mag + dt * vel.mag, 13, atom=False)
    x_new = w.declare(w.fresh("x_new"), step, 2 * 1.75 + step.mag, 13)
    if v_new is None:
        v_new = w.declare(w.fresh("v_new"), vel, vel.mag, None)
    bounce = f"-{vel.src}" if e == 1.0 else f"-{fmt_float(e)} * {vel.src}"
    def mirror(wall: Expr) -> str:  # x reflected at the wall: 2 * wall - x, folded for a literal wall
        return f"{fmt_float(2 * float(wall.src))} - {x_new.src}" if is_number(wall) else f"2.0 * {wall.src} - {x_new.src}"

    kind = d.breadth.choice(WALLS)
    if kind == "wrap":  # a periodic box: what leaves through one wall enters through the other
        if is_number(lower) and is_number(upper):
            span = fmt_float(float(upper.src) - float(lower.src))
        else:
            span = f"({upper.src} - {lower.src})"
        branch(w, f"if {x_new.src} < {lower.src}:", (x_new.src, f"{x_new.src} + {span}"))
        branch(w, f"elif {x_new.src} >= {upper.src}:", (x_new.src, f"{x_new.src} - {span}"))
        w.feature("periodic walls (wrapped round)")
        if d.vertical:  # settling through a periodic box: the kicked velocity is the body's new one
            return [Result(x_new, pos_out, state=True), Result(v_new, "vel_out", state=True)]
        return [Result(x_new, pos_out, state=True)]
    if kind == "stop":  # an inelastic wall: the body stops on it, its velocity into the wall gone
        branch(w, f"if {x_new.src} < {lower.src}:", (x_new.src, lower.src), (v_new.src, "0.0"))
        branch(w, f"elif {x_new.src} > {upper.src}:", (x_new.src, upper.src), (v_new.src, "0.0"))
        w.feature("walls that stop the body")
        return [Result(x_new, pos_out, state=True), Result(v_new, "vel_out", state=True)]
    branch(w, f"if {x_new.src} < {lower.src}:", (x_new.src, mirror(lower)), (v_new.src, bounce))
    branch(w, f"elif {x_new.src} > {upper.src}:", (x_new.src, mirror(upper)), (v_new.src, bounce))
    w.feature("reflecting walls")
    return [Result(x_new, pos_out, state=True), Result(v_new, "vel_out", state=True)]


def stick_slip_friction(d: Draw) -> list[Result] | None:
    """Coulomb friction `-mu * v / |v|` while sliding; below the stick speed, a viscous `-k * v`."""
    w = d.w
    if d.vertical:  # a body falling between floor and ceiling: friction is for sliding along a floor
        return None
    if d.normal_force is not None:  # beside a contact: the sliding velocity along the ground, not the normal one
        vel = d.input(d.rng.choice(["vel_t", "slip_vel", "tangent_vel"]), "tangential velocity")
    else:
        vel = d.input(d.rng.choice(["vel", "velocity", "speed_in"]), "vel")
    speed = w.assign(Expr(f"wp.abs({vel.src})", "float32", vel.mag, vel.q), prefix="speed")
    stick = d.threshold("v_stick", d.rng.choice([0.25, 0.5]))
    mu = d.threshold("mu", d.rng.choice([0.3, 0.5, 0.75]))
    k = d.rng.choice([1.0, 2.0, 4.0])
    loaded = d.normal_force is not None or d.breadth.random() < NORMAL_FORCE_SHARE
    if loaded or d.breadth.random() < REGULARISED_SHARE:
        # Coulomb's law, |f| = mu * fn, regularised below the stick speed (a linear ramp to zero, as
        # simulators write it to keep a sticking body from chattering); beside a contact, fn is its force
        fn = None
        if d.normal_force is not None:  # a penalty force pulls while the body leaves the ground: no friction then
            fn = w.assign(Expr(f"wp.max({d.normal_force.src}, 0.0)", "float32", d.normal_force.mag, None), prefix="fn")
        elif loaded:
            fn = d.input(d.breadth.choice(["normal_force", "fn", "load"]), "normal force", low=0.0, high=4.0)
        bound = f"{mu.src} * {fn.src}" if fn is not None else mu.src
        f = w.declare(w.fresh("friction"), ZERO, 4.0 * (fn.mag if fn is not None else 1.0), None)
        branch(w, f"if {speed.src} > {stick.src}:", (f.src, f"-{bound} * {vel.src} / {speed.src}"))
        if not is_number(stick):
            ramp = f"-{bound} * {vel.src} / {stick.src}"
        elif is_number(mu):  # literals folded: -(mu / v_stick) * fn * v
            ramp = " * ".join([fmt_float(-float(mu.src) / float(stick.src))] + ([fn.src] if fn is not None else []) + [vel.src])
        else:
            ramp = f"-{fmt_float(1.0 / float(stick.src))} * {bound} * {vel.src}"
        branch(w, "else:", (f.src, ramp))
        w.feature("stick-slip friction" if fn is None else "stick-slip friction under a normal force")
        w.feature("regularised below the stick speed")
        return [Result(f, "friction_force")]
    f = w.declare(w.fresh("friction"), ZERO, 8.0, None)
    branch(w, f"if {speed.src} > {stick.src}:", (f.src, f"-{mu.src} * {vel.src} / {speed.src}"))
    if not is_number(mu):  # `-1.0 * mu * v` is `-mu * v`
        viscous = f"-{mu.src} * {vel.src}" if k == 1.0 else f"-{fmt_float(k)} * {mu.src} * {vel.src}"
    else:
        viscous = f"-{vel.src}" if k * float(mu.src) == 1.0 else f"{fmt_float(-k * float(mu.src))} * {vel.src}"
    branch(w, "else:", (f.src, viscous))
    w.feature("stick-slip friction")
    return [Result(f, "friction_force")]


def hysteresis(d: Draw) -> list[Result] | None:
    """A switch with memory (a Schmitt trigger, a thermostat): on above the upper threshold, off below
    the lower one, and between them as it was, read from the state it updates."""
    q = d.quantity(("value", "magnitude"))
    edges = grid(q.low, q.high, 2, d.rng)
    if edges is None or edges[0] == edges[1]:
        return None
    lower, upper = d.thresholds(("off_below", "on_above"), tuple(edges))
    w = d.w
    state = w.add_array(d.breadth.choice(["is_on", "state", "switch_on", "active"]), "int32", "inout", low=0, high=1,
                        grid_bits=0)
    on = w.declare(w.fresh("on"), Expr(f"{state}[{w.own_index()}]", "int32", 1.0, 0), 1.0, 0)
    x = q.value.src
    branch(w, f"if {x} > {upper.src}:", (on.src, "1"))
    branch(w, f"elif {x} < {lower.src}:", (on.src, "0"))
    w.note_varying(on.src, x)
    w.feature("hysteresis (a switch that keeps its state between thresholds)")
    switched = [Result(on, state, state=True, into=state)]
    if d.breadth.random() < DRIVE_SHARE:  # what the switch drives: a heater's power, a pump's flow
        hint, level = d.breadth.choice([("heater", "power"), ("pump_flow", "flow_rate"), ("drive", "gain")])
        amount = d.threshold(level, d.breadth.choice([0.5, 1.5, 2.0, 4.0]))
        switched.append(Result(Expr(f"float({on.src}) * {amount.src}", "float32", amount.mag, None, atom=False), hint))
        w.feature("an output it switches on and off")
    return switched


class Form(NamedTuple):
    build: Callable[[Draw], list[Result] | None]
    min_loads: int  # generic inputs the form reads
    roles: frozenset[str] = frozenset()  # the named inputs it reads (`Draw.input`'s roles)


# One entry per form: name (the kernel's feature) -> how it is built.
PIECEWISE_FORMS: dict[str, Form] = {
    "saturating ramp": Form(saturating_ramp, 1),
    "dead zone": Form(dead_zone, 1),
    "Huber loss": Form(huber_loss, 1),
    "activation": Form(activation, 1),
    "quantisation into levels": Form(quantize, 1),
    "spline weight": Form(spline_weight, 1),
    "soft clipping knee": Form(soft_clip, 1),
    "window mask": Form(window_mask, 2),
    "quadrant label": Form(quadrant, 2),
    "upwind difference": Form(upwind_difference, 0, frozenset({"field", "vel"})),
    "minmod slope": Form(minmod_slope, 0, frozenset({"field"})),
    "penalty contact": Form(contact_force, 0, frozenset({"position", "vel"})),
    "reflecting walls": Form(reflect_at_walls, 0, frozenset({"position", "vel"})),
    "stick-slip friction": Form(stick_slip_friction, 0, frozenset({"vel"})),
    "hysteresis": Form(hysteresis, 1),
}
# Features a form names itself (more precisely than its table name).
_SELF_NAMED = {"hysteresis", "Huber loss", "activation", "spline weight", "upwind difference", "minmod slope", "penalty contact",
               "reflecting walls", "stick-slip friction"}


# A kernel of several forms is one computation (session 55: a dead zone beside an unrelated quadrant
# label and an ELU of a third input was three kernels in one). FEEDS: a later form tests the earlier
# one's result (its `feed`): the excess past a dead band soft-clipped (a deadband then a limiter, as in
# a controller) or taken as a residual's loss (an epsilon-insensitive Huber loss); a residual kept where
# a confidence lies in a window, then its loss (a masked loss). No level of a clipped value: a
# threshold below the knee sees the clip do nothing. ALONGSIDE: forms of one body or one field: a
# penalty contact's normal force and the friction on the body's velocity, a field's upwind step and its
# limited slope, a block sliding between walls and the friction that slows it.
FEEDS: dict[str, tuple[str, ...]] = {
    "dead zone": ("soft clipping knee", "Huber loss"),
    "window mask": ("Huber loss",),
}
ALONGSIDE: dict[str, tuple[str, ...]] = {
    "penalty contact": ("stick-slip friction",),
    "reflecting walls": ("stick-slip friction",),
    "upwind difference": ("minmod slope",),
}
FOLLOWERS: dict[str, tuple[str, ...]] = {
    form: FEEDS.get(form, ()) + ALONGSIDE.get(form, ()) for form in PIECEWISE_FORMS
    if form in FEEDS or form in ALONGSIDE}


def _build(draw: Draw, form: str) -> list[Result] | None:
    built = PIECEWISE_FORMS[form].build(draw)
    if built and form not in _SELF_NAMED:
        draw.w.feature(form)
    return built


def draw_pieces(draw: Draw, count: int, forms: tuple[str, ...] | None = None) -> list[list[Result]]:
    """One form (of `forms`, default all) built into the kernel, each named in its features, and with
    `count` above one, the forms that follow it (FOLLOWERS) while one can: a chain of `count` at most
    that starts at a form others follow. A form the kernel cannot hold (too few inputs, no room for a
    threshold) is passed over."""
    names = list(forms or PIECEWISE_FORMS)
    if count > 1:
        names = [f for f in names if f in FOLLOWERS]
    pieces: list[list[Result]] = []
    held: list[str] = []
    for form in draw.rng.sample(names, len(names)):
        if PIECEWISE_FORMS[form].min_loads > len(draw.loads):
            continue
        built = _build(draw, form)
        if built:
            pieces.append(built)
            held.append(form)
            break
    while held and len(pieces) < count:
        last = held[-1]
        options = [f for f in FOLLOWERS.get(last, ()) if f not in held and (forms is None or f in forms)
                   and PIECEWISE_FORMS[f].min_loads <= len(draw.loads)]
        if not options:
            break
        form = draw.rng.choice(options)
        if form in FEEDS.get(last, ()):
            draw.fed = pieces[-1][0].feed
            if draw.fed is None:  # rounded somewhere: no branch may test it
                break
        built = _build(draw, form)
        draw.fed = None
        if not built:
            break
        pieces.append(built)
        held.append(form)
    return pieces


# Forms whose results are float values (not labels): what other categories compute on.
FLOAT_FORMS = tuple(f for f in PIECEWISE_FORMS if f not in ("quantisation into levels", "quadrant label", "hysteresis"))


# Draws per kernel before one whose outputs, run at 64 sampled points, are constant or a copy of an
# input at 90% of them or more is kept regardless.
MAX_DRAWS = 8


def generate(rng: random.Random, name: str, seed: int):
    """A piecewise kernel, run at sampled points (synthesis.sampled_run) and redrawn while an output
    is the same everywhere or an input copied through."""
    for _ in range(MAX_DRAWS):
        spec = draw_kernel(rng, name, seed)
        if not degenerate_written(spec, points=64, share=0.9):
            return spec
    return spec


def draw_kernel(rng: random.Random, name: str, seed: int):
    w = KernelWriter(rng, name, "multi_conditional", seed, pick_dim(rng, nd_prob=0.3))
    hints = rng.sample([h for h in INPUT_HINTS if h not in ("x", "y", "p", "q", "u", "w")], rng.randint(1, 3))
    loads = [w.add_array(h, "float32", "input", low=-2.0, high=2.0, grid_bits=10) for h in hints]
    if len(w.dim) == 1 and rng.random() < 0.15:
        early_return(w)
    draw = Draw(w, loads)
    draw.vectors = True
    pieces = draw_pieces(draw, 1 if rng.random() < SINGLE_SHARE else rng.choice([2, 2, 3]))
    others = [w.load(n) for n in loads]
    for k, built in enumerate(pieces):
        # a result the next form was fed (a feeding form is followed only by forms it feeds): a step of
        # the chain, kept in its array at times
        if k + 1 < len(pieces) and built[0].feed is not None and draw.breadth.random() >= KEPT_STEP_SHARE:
            continue
        for r in built:
            value, dtype = r.value, r.value.type
            if r.weight and rng.random() < 0.4:
                # a weight in [0, 1] scales another value, as masks and kernel weights are used
                other = rng.choice(others)
                value = Expr(f"{r.value.src} * {other.src}", "float32", other.mag, None, atom=False)
                w.feature("weighted input")
            elif r.weight and len(others) > 1 and draw.breadth.random() < CROSSFADE_SHARE:
                # or fades from one value to another as it rises
                a, b = draw.breadth.sample(others, 2)
                text = draw.breadth.choice([f"wp.lerp({a.src}, {b.src}, {r.value.src})",
                                            f"(1.0 - {r.value.src}) * {a.src} + {r.value.src} * {b.src}"])
                value = Expr(text, "float32", max(a.mag, b.mag), None, atom=text.startswith("wp."))
                w.feature("crossfade by the weight")
            out = r.into or w.add_array(r.hint, dtype, "output")
            w.store(out, value, state=r.state)
    w.drop_dead_stores()
    return w.finish("Multi-way conditional kernel")
