"""Stencils on 1-D/2-D/3-D grids: diffusion, gradients, Jacobi sweeps, blurs, advection, waves.

Each thread updates one grid cell from its neighbours, as in Warp's fluid, wave and FDTD examples:
borders are clamped or guarded in a `@wp.func` sampler (array and int parameters, early `return`),
or skipped with an early `return` / an interior test (`0 < i < u.shape[0] - 1`); coefficients are
module constants (`wp.constant` or plain numbers) or arguments; `.shape` bounds the indices.
A share of them (synthesis.categories.channels) work on batches of multi-channel images (4-D NCHW arrays).
Semi-Lagrangian advection floors exact positions only (velocities on a 1/64 grid times a 1/16
step), so the sampled cell is the same in Warp and CUDA.
"""
from __future__ import annotations

import itertools
import random
import re

from synthesis.categories import channels
from synthesis.categories.common import OUTPUT_NAMES
from synthesis.categories.rich import RichKernelWriter, grid_value
from synthesis.exprgen import Expr, fmt_float

SHAPES = {
    1: [(128,), (256,), (500,), (1000,)],
    2: [(16, 16), (24, 16), (32, 24), (20, 20), (16, 32)],
    3: [(8, 8, 8), (12, 8, 6), (10, 10, 4)],
}
FIELD_NAMES = ["u", "phi", "temp", "rho", "p", "h", "density", "field"]
AXES = "xyz"


class Stencil:
    """One kernel under construction: the grid, its field, the border style and the sampler."""

    def __init__(self, rng: random.Random, name: str, seed: int):
        self.rng = rng
        self.nd = rng.choice([1, 2, 2, 2, 3])
        self.w = RichKernelWriter(rng, name, "stencil", seed, rng.choice(SHAPES[self.nd]))
        self.idx = self.w.tid_names
        self.border = rng.choice(["clamp", "guard", "return", "interior"])
        self.field = self.w.add_array(rng.choice(FIELD_NAMES), "float32", "input", low=-1.0, high=1.0)
        self.sampler: str | None = None
        self.keywords = rng.random() < 0.4  # builtins called with keyword arguments
        # the stencil measures the field (a gradient, a second difference) rather than giving its next
        # or smoothed value: no source or reaction term joins it, and a border cell it cannot measure
        # holds 0.0, not the field
        self.derived = False
        # the kernel's time step: the first term that steps in time draws it, the others take it (an
        # advection by TIME_STEP beside a forcing by a `dt` argument was two time steps in one update)
        self.dt: Expr | None = None
        self.out: str | None = None  # the output array, once generate has named it
        self._center: Expr | None = None

    def field_state(self, hint: str) -> str:
        """A state array's name (`u_new`, `phi_next`, `u_prev`) for the kernel's own field: `rho_new` beside
        `rho`, as a person names the next level of the field they step, not `u_new` beside `phi`. Other
        names (`diffused`, `old`) as they are."""
        state = re.fullmatch(r"(?:u|phi|x|p|q)_(new|next|prev|src)", hint)
        return f"{self.field}_{state.group(1)}" if state else hint

    @property
    def center(self) -> Expr:
        """The own cell's value, loaded once into a local where first needed."""
        if self._center is None:
            own = ", ".join(self.idx)
            # never a parameter's name (a wave speed `c`): Warp would assign to the parameter
            own_value = f"{self.field}0" if len(self.field) <= 4 else "center"  # `h0` of `h`, not `u0`
            names = [n for n in ("c", "center", own_value) if not self.w.is_argument(n)]
            self._center = self.local(self.rng.choice(names), f"{self.field}[{own}]", 1.0, 10)
        return self._center

    # ---- pieces --------------------------------------------------------------------------
    def ann(self, dtype: str = "float") -> str:
        return f"wp.array(dtype={dtype})" if self.nd == 1 else f"wp.array{self.nd}d(dtype={dtype})"

    def make_sampler(self) -> str:
        """`@wp.func` reading f at integer coordinates outside the grid: clamped or zero."""
        w, rng = self.w, self.rng
        name = f"{w.name}_{rng.choice(['sample', 'lookup', 'at', 'fetch'])}"
        coords = list(AXES[: self.nd])
        params = ", ".join(f"{c}: int" for c in coords)
        lines = [f"@wp.func\ndef {name}(f: {self.ann()}, {params}) -> float:"]
        if self.border == "guard":
            for k, c in enumerate(coords):
                lines.append(f"    if {c} < 0 or {c} >= f.shape[{k}]:\n        return 0.0")
            lines.append(f"    return f[{', '.join(coords)}]")
        else:
            for k, c in enumerate(coords):
                if self.keywords:
                    lines.append(f"    c{c} = wp.clamp({c}, low=0, high=f.shape[{k}] - 1)")
                else:
                    lines.append(f"    c{c} = wp.clamp({c}, 0, f.shape[{k}] - 1)")
            lines.append(f"    return f[{', '.join('c' + c for c in coords)}]")
        w.add_helper("\n".join(lines), name)
        w.feature(f"{'guarded' if self.border == 'guard' else 'clamped'} sampler")
        return name

    def drop_unused_sampler(self) -> None:
        """The sampler and its feature gone where no line calls it (a periodic advection reads its
        wrapped corners directly)."""
        name = self.sampler
        callers = self.w.lines + [h for h, n in zip(self.w.helpers, self.w.helper_names) if n != name]
        if name is None or any(f"{name}(" in text for text in callers):
            return
        k = self.w.helper_names.index(name)
        del self.w.helper_names[k], self.w.helpers[k]
        self.w.features = [f for f in self.w.features if not f.endswith(" sampler")]
        self.sampler = None

    def at(self, offsets: tuple[int, ...]) -> str:
        """The field at the own cell shifted by `offsets`."""
        coords = [f"{t} + {o}" if o > 0 else (f"{t} - {-o}" if o < 0 else t) for t, o in zip(self.idx, offsets)]
        if self.sampler and any(offsets):
            return f"{self.sampler}({self.field}, {', '.join(coords)})"
        return f"{self.field}[{', '.join(coords)}]"

    def neighbours(self, axis: int, dist: int = 1) -> tuple[str, str]:
        lo = tuple(-dist if k == axis else 0 for k in range(self.nd))
        hi = tuple(dist if k == axis else 0 for k in range(self.nd))
        return self.at(lo), self.at(hi)

    def local(self, name: str, value: str, mag: float, q: int | None, dtype: str = "float32") -> Expr:
        self.w.emit(f"{name} = {value}")
        e = Expr(name, dtype, mag, q)
        self.w.scopes[-1][name] = e
        return e

    def coefficient(self, hint: str, low: float, high: float) -> Expr:
        """A step or rate: a module constant or a float argument (multiples of 1/16)."""
        value = grid_value(self.rng, low, high)
        if any(hint in scope for scope in self.w.scopes):  # a local holds the name (the centre `c`)
            hint = {"c": "wave_speed"}.get(hint, f"{hint}_coef")
        if self.rng.random() < 0.6:
            return self.w.add_constant(hint.upper(), value)
        return self.w.add_scalar(hint, "float32", value)

    def time_step(self, hint: str) -> Expr:
        """The kernel's time step: a new coefficient the first time, the same one after (its draws are
        still made, so every later draw of the kernel stays as it was)."""
        value = grid_value(self.rng, 0.0625, 0.5)
        constant = self.rng.random() < 0.6
        if self.dt is None:
            self.dt = self.w.add_constant(hint.upper(), value) if constant else self.w.add_scalar(hint, "float32", value)
        return self.dt

    def interior_test(self) -> str:
        parts = []
        for k, t in enumerate(self.idx):
            if self.rng.random() < 0.5:
                parts.append(f"0 < {t} < {self.field}.shape[{k}] - 1")
            else:
                parts.append(f"{t} > 0 and {t} < {self.field}.shape[{k}] - 1")
        return " and ".join(parts)

    def border_test(self) -> str:
        parts = []
        for k, t in enumerate(self.idx):
            parts.append(f"{t} == 0 or {t} >= {self.field}.shape[{k}] - 1")
        return " or ".join(parts)


# ---- the stencils (each returns the value to store and its bound) ----------------------------
def laplacian(s: Stencil) -> Expr:
    c = s.center
    terms = []
    for axis in range(s.nd):
        lo, hi = s.neighbours(axis)
        terms += [lo, hi]
    if s.rng.random() < 0.5:
        lap = s.local("lap", " + ".join(terms) + f" - {2.0 * s.nd} * {c.src}", 4.0 * s.nd, 10)
    else:
        lap = s.local("lap", " + ".join(terms), 2.0 * s.nd, 10)
        s.w.emit(f"lap -= {2.0 * s.nd} * {c.src}")
        lap = Expr("lap", "float32", 4.0 * s.nd, 10)
    k = s.coefficient(s.rng.choice(["alpha", "diffusion", "kappa"]), 0.0625, 0.25)
    s.w.feature("laplacian")
    return Expr(f"{c.src} + {k.src} * {lap.src}", "float32", 1.0 + k.mag * lap.mag, None, atom=False)


# What a gradient's norm is for, as the output's name says: the squared gradient (an energy), its
# length (an edge strength), or the area element of the field's graph, sqrt(1 + |grad|^2)
GRADIENT_NORM_FORMS = {"grad_sq": "squared", "grad_energy": "squared", "grad_mag": "length", "edges": "length",
                       "area_element": "area"}


def gradient_norm(s: Stencil) -> Expr:
    """Central differences; squared magnitude with ** or a product, its length, or the graph's area element."""
    inv = s.coefficient(s.rng.choice(["inv_dx", "inv_h", "scale"]), 0.25, 1.0)
    comps = []
    for axis in range(s.nd):
        lo, hi = s.neighbours(axis)
        comps.append(s.local(f"d{AXES[axis]}", f"({hi} - {lo}) * 0.5 * {inv.src}", inv.mag, None))
    sq = [f"{g.src} ** 2.0" if s.rng.random() < 0.5 else f"{g.src} * {g.src}" for g in comps]
    s.w.feature("gradient")
    s.derived = True
    total = sum(g.mag * g.mag for g in comps)
    form = GRADIENT_NORM_FORMS.get(s.out) or s.rng.choice(["squared", "length", "area"])
    if form == "area":
        s.w.feature("area element of the graph")
        return Expr(f"wp.sqrt(1.0 + {' + '.join(sq)})", "float32", (total + 1.0) ** 0.5, None)
    if form == "length":
        s.w.feature("gradient magnitude")
        return Expr(f"wp.sqrt({' + '.join(sq)})", "float32", total ** 0.5, None)
    return Expr(" + ".join(sq), "float32", total, None, atom=False)


def jacobi(s: Stencil) -> Expr:
    rhs = s.w.add_array(s.rng.choice(["div", "rhs", "source"]), "float32", "input", low=-1.0, high=1.0)
    own = ", ".join(s.idx)
    terms = []
    for axis in range(s.nd):
        terms += list(s.neighbours(axis))
    h2 = s.coefficient(s.rng.choice(["h2", "dx2", "cell_area"]), 0.0625, 1.0)
    s.w.feature("Jacobi sweep")
    inv = fmt_float(1.0 / (2 * s.nd))
    return Expr(f"({' + '.join(terms)} - {h2.src} * {rhs}[{own}]) * {inv}", "float32",
                (2 * s.nd + h2.mag) / (2 * s.nd), None, atom=False)


def blur(s: Stencil) -> Expr:
    """A box filter of radius R (a module constant) in nested loops over the sampler."""
    radius = s.rng.choice([1, 2])
    r = s.w.add_constant(s.rng.choice(["RADIUS", "R", "HALF_WIDTH"]), radius)
    loop_vars = ["di", "dj", "dk"][: s.nd]
    acc = s.w.declare("acc", Expr("0.0", "float32", 0.0, 0), (2 * radius + 1) ** s.nd, 10)
    weighted = s.rng.random() < 0.5
    if weighted:
        s.w.declare("wsum", Expr("0.0", "float32", 0.0, 0), float((2 * radius + 1) ** s.nd), None)
    depth = 0
    for v in loop_vars:
        s.w.emit(f"for {v} in range(-{r.src}, {r.src} + 1):")
        s.w.indent += 1
        depth += 1
    coords = ", ".join(f"{t} + {v}" for t, v in zip(s.idx, loop_vars))
    sample = f"{s.sampler}({s.field}, {coords})"
    if weighted:
        # taps weighted by their distance, normalised by the weights' sum (a weighted mean): dividing
        # by the tap count instead, as a box filter does, scaled the result by 0.48-0.66
        dist = " + ".join(f"wp.abs({v})" for v in loop_vars)
        s.w.emit(f"wt = 1.0 / float(1 + {dist})")
        s.w.emit(f"acc += wt * {sample}")
        s.w.emit("wsum += wt")
    else:
        s.w.emit(f"acc += {sample}")
    s.w.indent -= depth
    count = (2 * radius + 1) ** s.nd
    if weighted:
        s.w.feature(f"distance-weighted mean, radius {radius}")
        return Expr("acc / wsum", "float32", 1.0, None, atom=False)
    s.w.feature(f"box filter radius {radius}")
    return Expr(f"acc / {fmt_float(float(count))}", "float32", 1.0, None, atom=False)


def advect(s: Stencil) -> Expr:
    """Semi-Lagrangian: trace back along the velocity, bilinear/linear interpolation with lerp."""
    vtype = "vec2" if s.nd == 2 else ("vec3" if s.nd == 3 else "float32")
    hint, value = s.rng.choice(["DT", "TIME_STEP"]), grid_value(s.rng, 0.0625, 0.5)
    dt = s.dt = s.dt or s.w.add_constant(hint, value)
    own = ", ".join(s.idx)
    if s.nd > 1 and s.rng.random() < 0.35:
        vc = s.w.add_value(s.rng.choice(["wind", "drift", "u_inf"]), vtype, tuple(grid_value(s.rng, -2.0, 2.0)
                                                                               for _ in range(s.nd)))
        vc_src = vc.src
        s.w.feature("uniform velocity by value")
    else:
        vel = s.w.add_array(s.rng.choice(["vel", "velocity", "v"]), vtype, "input", low=-2.0, high=2.0, grid_bits=6)
        vc_src = s.local("vc", f"{vel}[{own}]", 2.0, 6, vtype).src
    periodic = s.rng.random() < 0.3
    lows, fracs = [], []
    for axis, t in enumerate(s.idx):
        comp = vc_src if s.nd == 1 else f"{vc_src}[{axis}]" if s.rng.random() < 0.5 else f"{vc_src}.{AXES[axis]}"
        extent = float(s.w.dim[axis]) + 2.0 * dt.mag
        back = f"float({t}) - {comp} * {dt.src}"
        if periodic:  # exact operands: fmod is exact, the wrapped cell is the same everywhere
            size = f"float({s.field}.shape[{axis}])"
            pos = s.local(f"p{AXES[axis]}", f"wp.mod({back} + {size}, {size})", extent, 10)
            s.w.feature("periodic wrap (wp.mod)")
        else:
            pos = s.local(f"p{AXES[axis]}", back, extent, 10)
        low = s.local(f"l{AXES[axis]}", f"int(wp.floor({pos.src}))", extent + 1.0, 0, "int32")
        fracs.append(s.local(f"t{AXES[axis]}", f"{pos.src} - float({low.src})", 1.0, 10))
        lows.append(low.src)

    def corner(bits: tuple[int, ...]) -> str:
        # a periodic domain wraps the upper corner too (the last cell's neighbour is the first), as
        # the traced position was wrapped, so every corner lies in the grid and is read as it is (a
        # clamped or guarded read of it would guard nothing); a clamped one leaves it to the sampler
        coords = [(f"({l} + 1) % {s.field}.shape[{axis}]" if periodic else f"{l} + 1") if b else l
                  for axis, (l, b) in enumerate(zip(lows, bits))]
        if periodic:
            return f"{s.field}[{', '.join(coords)}]"
        return f"{s.sampler}({s.field}, {', '.join(coords)})"

    # Interpolate axis by axis: 2**nd corners -> 1 value.
    corners = {bits: corner(bits) for bits in itertools.product((0, 1), repeat=s.nd)}
    for axis in range(s.nd):
        merged = {}
        for bits, val in corners.items():
            if bits[axis] == 1:
                continue
            hi = corners[bits[:axis] + (1,) + bits[axis + 1:]]
            name = f"s{axis}{''.join(map(str, bits[axis + 1:]))}"
            e = s.local(name, f"wp.lerp({val}, {hi}, {fracs[axis].src})", 1.0, None)
            merged[bits] = e.src
        corners = merged
    s.w.feature("semi-Lagrangian advection")
    return Expr(next(iter(corners.values())), "float32", 1.0, None)


def wave(s: Stencil) -> Expr:
    """Leapfrog wave equation: u_next = 2u - u_prev + (c dt / dx)**2 * laplacian."""
    prev = s.w.add_array(s.field_state(s.rng.choice(["u_prev", "prev", "old"])), "float32", "input", low=-1.0, high=1.0)
    own = ", ".join(s.idx)
    terms = []
    for axis in range(s.nd):
        terms += list(s.neighbours(axis))
    c = s.coefficient(s.rng.choice(["speed", "wave_speed", "c"]), 0.25, 1.0)
    dt = s.time_step(s.rng.choice(["dt", "step"]))
    courant = s.local("courant", f"({c.src} * {dt.src}) ** 2.0", (c.mag * dt.mag) ** 2, None)
    lap = s.local("lap", " + ".join(terms) + f" - {2.0 * s.nd} * {s.center.src}", 4.0 * s.nd, 10)
    s.w.feature("wave equation")
    return Expr(f"2.0 * {s.center.src} - {prev}[{own}] + {courant.src} * {lap.src}", "float32",
                3.0 + courant.mag * lap.mag, None, atom=False)


def standing_source(s: Stencil) -> Expr:
    """A sine source over the grid (wp.pi), shaped by the field's value."""
    amp = s.coefficient(s.rng.choice(["amplitude", "amp", "strength"]), 0.25, 2.0)
    phase = []
    for k, t in enumerate(s.idx[: s.rng.randint(1, s.nd)]):
        cast = s.rng.choice(["float", "wp.float32"])
        phase.append(f"wp.sin(wp.pi * {cast}({t}) / {cast}({s.field}.shape[{k}] - 1))")
    src = s.local("src", f"{amp.src} * " + " * ".join(phase), amp.mag, None)
    s.w.feature("sine source (wp.pi)")
    if s.rng.random() < 0.5:
        return Expr(f"{s.center.src} + {src.src}", "float32", 1.0 + src.mag, None, atom=False)
    return Expr(f"{s.center.src} * (1.0 + {src.src})", "float32", 1.0 + src.mag, None, atom=False)


TUPLE_GRADIENT_FORMS = {"grad_energy": True, "grad_mag": False, "edge_strength": False}  # squared or not


def tuple_gradient(s: Stencil) -> Expr:
    """A helper returning both central differences as a tuple, unpacked by the kernel (2-D+)."""
    w, rng = s.w, s.rng
    name = f"{w.name}_{rng.choice(['central_diff', 'gradient', 'grad'])}"
    coords = list(AXES[: s.nd])
    params = ", ".join(f"{c}: int" for c in coords)
    diffs = []
    for k, c in enumerate(coords):
        lo = ", ".join(f"{d} - 1" if d == c else d for d in coords)
        hi = ", ".join(f"{d} + 1" if d == c else d for d in coords)
        if s.sampler:
            diffs.append(f"{s.sampler}(f, {hi}) - {s.sampler}(f, {lo})")
        else:
            diffs.append(f"f[{hi}] - f[{lo}]")
    ret = ", ".join(f"({d}) * h" for d in diffs)
    annot = ", ".join(["float"] * s.nd)
    w.add_helper(f"@wp.func\ndef {name}(f: {s.ann()}, {params}, h: float) -> tuple[{annot}]:\n    return {ret}", name)
    h = s.coefficient(rng.choice(["half_inv_dx", "inv_2h", "scale"]), 0.25, 1.0)
    names = [f"g{c}" for c in coords]
    w.emit(f"{', '.join(names)} = {name}({s.field}, {', '.join(s.idx)}, {h.src})")
    for n in names:
        w.scopes[-1][n] = Expr(n, "float32", 2.0 * h.mag, None)
    w.feature("tuple-returning helper")
    s.derived = True
    energy = " + ".join(f"{n} * {n}" for n in names)
    # the squared gradient (an energy), or its length (an edge strength), as the output's name says
    squared = rng.random() < 0.5 if s.out not in TUPLE_GRADIENT_FORMS else TUPLE_GRADIENT_FORMS[s.out]
    if squared:
        return Expr(energy, "float32", s.nd * (2 * h.mag) ** 2, None, atom=False)
    w.feature("gradient magnitude")
    return Expr(f"wp.sqrt({energy})", "float32", (s.nd ** 0.5) * 2 * h.mag, None)


# Filter taps as a module-level tuple, the way Warp code spells a fixed filter: a loop over
# `range(wp.static(len(TAPS)))` that Warp unrolls when it builds the kernel, each trip reading its
# weight with `wp.static(TAPS[k])` (a constant in the generated code, no load). (name, taps written as
# a person would, the sum of their magnitudes, smoothing or not); the taps are centred on the own cell.
TAP_SETS = (
    ("binomial 3-tap", ("0.25", "0.5", "0.25"), 1.0, True),
    ("binomial 5-tap", ("0.0625", "0.25", "0.375", "0.25", "0.0625"), 1.0, True),
    ("binomial 7-tap", ("1.0 / 64.0", "6.0 / 64.0", "15.0 / 64.0", "20.0 / 64.0", "15.0 / 64.0", "6.0 / 64.0",
                        "1.0 / 64.0"), 1.0, True),
    ("second difference", ("1.0", "-2.0", "1.0"), 4.0, False),
    ("fourth-order second difference", ("-1.0 / 12.0", "4.0 / 3.0", "-2.5", "4.0 / 3.0", "-1.0 / 12.0"), 16.0 / 3.0,
     False),
)
TAP_NAMES = ("TAPS", "WEIGHTS", "KERNEL_WEIGHTS", "FILTER", "COEFFS")
HALF_WIDTH_NAMES = ("HALF", "RADIUS", "HALF_WIDTH")


def static_taps(s: Stencil) -> Expr:
    """A fixed filter along one axis (a separable blur's pass) or summed over every axis (a
    higher-order Laplacian): taps in a module-level tuple, read in a loop Warp unrolls (wp.static)."""
    w, rng = s.w, s.rng
    label, taps, weight, smoothing = rng.choice(TAP_SETS)
    name = rng.choice(TAP_NAMES)
    w.module_constants[name] = f"{name} = ({', '.join(taps)})"
    half = len(taps) // 2
    if rng.random() < 0.5:
        offset = w.add_constant(rng.choice(HALF_WIDTH_NAMES), half, "plain").src
    else:
        offset = f"wp.static(len({name}) // 2)"
    axes = [rng.randrange(s.nd)] if smoothing or rng.random() < 0.5 else list(range(s.nd))
    # never `k`: a decay or reaction coefficient drawn after the filter may take that name
    free = [v for v in ("t", "tap", "acc", "total", "filtered")
            if not w.is_argument(v) and v not in s.idx and not any(v in scope for scope in w.scopes)]
    k = rng.choice([v for v in free if v in ("t", "tap")])
    acc = w.declare(rng.choice([v for v in free if v in ("acc", "total", "filtered")]), Expr("0.0", "float32", 0.0, 0),
                    weight * len(axes), None)
    w.emit(f"for {k} in range(wp.static(len({name}))):")
    w.indent += 1
    for axis in axes:
        coords = tuple(f"{t} + {k} - {offset}" if a == axis else t for a, t in enumerate(s.idx))
        w.emit(f"{acc.src} += wp.static({name}[{k}]) * {s.sampler}({s.field}, {', '.join(coords)})")
    w.indent -= 1
    axis_text = "every axis" if len(axes) > 1 else f"axis {AXES[axes[0]]}"
    w.feature(f"{label} filter along {axis_text} (taps unrolled with wp.static)")
    if smoothing:
        return Expr(acc.src, "float32", weight * len(axes), None)
    s.derived = True
    inv = s.coefficient(rng.choice(["inv_h2", "inv_dx2", "scale"]), 0.25, 1.0)
    return Expr(f"{inv.src} * {acc.src}", "float32", inv.mag * weight * len(axes), None, atom=False)


STENCILS = [laplacian, gradient_norm, jacobi, blur, advect, wave, standing_source, tuple_gradient, static_taps]
# The stencils whose value is the field's next state (an explicit diffusion or source step, a Jacobi
# iterate, a wave's next level, an advected field): never added to the old array
STATE_STENCILS = (laplacian, jacobi, advect, wave, standing_source)
# The terms at the point a step's equation can carry (pointwise_term): a diffusion step becomes a
# forced, decaying or reaction-diffusion step; a wave or an advected field can be forced or damped;
# a sine source can decay. A Jacobi iterate has its source in the right-hand side already, and a
# smoothed or measured field (a blur, a gradient) is no time step a forcing could join.
POINT_TERMS = {laplacian: ("forcing", "decay", "cubic"), wave: ("forcing", "decay"), advect: ("forcing", "decay"),
               standing_source: ("decay",)}


def pointwise_term(s: Stencil, value: Expr, terms: tuple[str, ...]) -> Expr:
    """A term at the point itself on top of the stencil, as reaction-diffusion and forced problems add
    one: a forcing read from an array (`+ dt * f[i, j]`), a linear decay of the centre (`- k * c`), or
    the cubic reaction of the Allen-Cahn equation (`+ k * (c - c * c * c)`)."""
    w, rng = s.w, s.rng
    own = ", ".join(s.idx)
    term = rng.choice(terms)
    if term == "forcing":
        source = rng.choice(["forcing", "source", "heat_in"])
        # heat goes into a temperature: a density or a wave is forced, or given a source
        source = w.add_array(source if s.field == "temp" or source != "heat_in" else "forcing", "float32", "input",
                             low=-1.0, high=1.0)
        w.unused.remove(source)
        dt = s.time_step("dt")
        w.feature("forcing term")
        return Expr(f"{value.operand()} + {dt.src} * {source}[{own}]", "float32", value.mag + dt.mag, None, atom=False)
    k = s.coefficient("k", 0.0625, 0.5)
    c = s.center.src
    if term == "decay":
        w.feature("linear decay term")
        return Expr(f"{value.operand()} - {k.src} * {c}", "float32", value.mag + k.mag, None, atom=False)
    w.feature("cubic reaction term (Allen-Cahn)")
    return Expr(f"{value.operand()} + {k.src} * ({c} - {c} * {c} * {c})", "float32", value.mag + 2.0 * k.mag, None,
                atom=False)


RESIDUAL_SHARE = 0.5  # Jacobi sweeps that can also sum their squared change
# What a step's new state is multiplied by: a damping takes a few percent off per step (0.5, which
# halved a wave's field every step, is no damping anyone writes), a decay or fade more. Binary
# fractions: the product is exact in Warp and CUDA alike.
DAMPING_FACTORS = (0.9375, 0.96875, 0.984375, 0.9921875)
DECAY_FACTORS = (0.75, 0.8125, 0.875, 0.9375)


def residual_norm(s: Stencil, out: str, value: Expr) -> None:
    """Store the sweep's new value and, when a `bool` argument asks for it, add the squared change to
    a one-element sum, as an iterative solver's sweep does to decide when to stop (Warp's distributed
    Jacobi example, `calculate_norm`). The sample's argument is True: its sum is checked too."""
    w, rng = s.w, s.rng
    own = ", ".join(s.idx)
    if not (value.atom and any(value.src in scope for scope in w.scopes)):
        value = s.local(rng.choice([n for n in ("new_val", "updated", s.field_state("u_new")) if not w.is_argument(n)]),
                        value.src, value.mag, None)
    w.store(out, value, own)
    w.output_update_share = 0.0  # the sweep writes its new iterate; the change is measured against the old
    flag = w.add_scalar(rng.choice(["calculate_norm", "compute_residual", "track_change"]), "bool", True)
    norm = w.add_array(rng.choice(["l2_norm", "residual", "change_sq"]), "float32", "output", shape=(1,))
    with w.block(f"if {flag.src}:"):
        d = rng.choice([n for n in ("d", "delta", "diff") if not w.is_argument(n)])
        w.emit(f"{d} = {value.src} - {s.center.src}")
        if rng.random() < 0.5:
            w.emit(f"wp.atomic_add({norm}, 0, {d} * {d})")
        else:
            w.emit(f"{norm}[0] += {d} * {d}")
    cells = 1
    for extent in w.dim:
        cells *= extent
    w.note_bound(norm, cells * (value.mag + 1.0) ** 2)
    w.feature(f"squared change summed when a bool argument asks ({flag.src})")


FIELD_ADVECTION_SHARE = 0.1  # stencil kernels advecting several fields through one generic sampler

# Fields a 2-D fluid step carries along the flow: (hints, type, value range, output hints). The
# velocity, when it is among them, is the one the kernel traces back along (self-advection).
ADVECTED_FIELDS = (
    (("density", "smoke", "rho"), "float32", 0.0, 1.0, ("density_out", "density_new")),
    (("temperature", "temp", "heat"), "float32", -1.0, 1.0, ("temperature_out", "temp_new")),
    (("dye", "color", "rgb"), "vec3", 0.0, 1.0, ("dye_out", "color_new")),
)
VELOCITY_HINTS = ("vel", "velocity", "u")


def chooses_field_advection(seed: int) -> bool:
    """Whether stencil kernel `seed` advects several fields through a generic sampler: a stream of
    its own, so the other stencil kernels keep every draw."""
    return random.Random(seed ^ 0xADF1).random() < FIELD_ADVECTION_SHARE


def advect_fields(rng: random.Random, name: str, seed: int) -> RichKernelWriter:
    """One semi-Lagrangian step of a 2-D fluid, as Warp's fluid example takes it, with the samplers
    written once for every field type: each cell traces back along its velocity and reads every
    advected field there (the velocity itself, a density, a temperature, an RGB dye: at least two
    types) through one generic `@wp.func` bilinear sampler over `wp.array2d(dtype=Any)`, whose corners
    come from a generic clamped (or periodic) lookup. Exactness as `advect`: velocities on a 1/64 grid,
    the step a multiple of 1/16, so the traced position, and so the sampled cell, is exact in Warp
    and CUDA alike; the interpolation is a convex combination (`wp.lerp`, or written out)."""
    w = RichKernelWriter(rng, name, "stencil", seed, rng.choice(SHAPES[2]))
    w.output_update_share = 0.0  # advected fields are the step's new state, never added to the old
    i, j = w.tid_names
    suffix = name.split("_")[-1]
    w.add_import("from typing import Any")
    field_ann = rng.choice(["wp.array2d(dtype=Any)", "wp.array2d[Any]"])
    # the lookup: a cell's value with its coordinates clamped to the grid, or wrapped (a periodic domain)
    lookup = f"{rng.choice(['lookup', 'fetch', 'cell'])}_{suffix}"
    periodic = rng.random() < 0.3
    if periodic:
        body = ["    cx = (x % f.shape[0] + f.shape[0]) % f.shape[0]", "    cy = (y % f.shape[1] + f.shape[1]) % f.shape[1]"]
        w.feature("periodic lookup")
    elif rng.random() < 0.4:
        body = ["    cx = wp.clamp(x, low=0, high=f.shape[0] - 1)", "    cy = wp.clamp(y, low=0, high=f.shape[1] - 1)"]
        w.feature("clamped lookup")
    else:
        body = ["    cx = wp.clamp(x, 0, f.shape[0] - 1)", "    cy = wp.clamp(y, 0, f.shape[1] - 1)"]
        w.feature("clamped lookup")
    w.add_helper("\n".join([f"@wp.func\ndef {lookup}(f: {field_ann}, x: int, y: int):", *body, "    return f[cx, cy]"]),
                 lookup)
    # the bilinear sampler at a point (two floats, or a vec2)
    sampler = f"{rng.choice(['sample_bilinear', 'bilerp', 'sample_field'])}_{suffix}"
    as_vector = rng.random() < 0.4
    head = f"@wp.func\ndef {sampler}(f: {field_ann}, {'p: wp.vec2' if as_vector else 'x: float, y: float'}):"
    x, y = ("p[0]", "p[1]") if as_vector else ("x", "y")
    if rng.random() < 0.6:
        def mix(a: str, b: str, t: str) -> str:
            return f"wp.lerp({a}, {b}, {t})"
    else:
        def mix(a: str, b: str, t: str) -> str:
            return f"{a} * (1.0 - {t}) + {b} * {t}"
    lines = [head, f"    lx = int(wp.floor({x}))", f"    ly = int(wp.floor({y}))",
             f"    tx = {x} - float(lx)", f"    ty = {y} - float(ly)",
             f"    s0 = {mix(f'{lookup}(f, lx, ly)', f'{lookup}(f, lx + 1, ly)', 'tx')}",
             f"    s1 = {mix(f'{lookup}(f, lx, ly + 1)', f'{lookup}(f, lx + 1, ly + 1)', 'tx')}",
             f"    return {mix('s0', 's1', 'ty')}"]
    w.add_helper("\n".join(lines), sampler)
    w.feature("generic bilinear sampler over wp.array2d(dtype=Any)")
    # the fields: the velocity's own advection, or not; at least two types in all
    while True:
        chosen = rng.sample(ADVECTED_FIELDS, rng.choice([1, 2, 2]))
        self_advected = rng.random() < 0.6
        if len({f[1] for f in chosen} | ({"vec2"} if self_advected else set())) >= 2:
            break
    vel = w.add_array(rng.choice(VELOCITY_HINTS), "vec2", "input", low=-2.0, high=2.0, grid_bits=6)
    w.unused.remove(vel)
    dt = w.add_constant(rng.choice(["DT", "TIME_STEP"]), grid_value(rng, 0.0625, 0.5)) if rng.random() < 0.6 \
        else w.add_scalar(rng.choice(["dt", "time_step"]), "float32", grid_value(rng, 0.0625, 0.5))
    w.emit(f"v = {vel}[{i}, {j}]")
    if as_vector or rng.random() < 0.5:
        w.emit(f"p = wp.vec2(float({i}), float({j})) - v * {dt.src}")
        at = "p" if as_vector else "p[0], p[1]"
    else:
        w.emit(f"x = float({i}) - v[0] * {dt.src}")
        w.emit(f"y = float({j}) - v[1] * {dt.src}")
        at = "wp.vec2(x, y)" if as_vector else "x, y"
    own = f"{i}, {j}"
    if self_advected:
        out = w.add_array(rng.choice(["vel_out", "velocity_new", "u_new"]), "vec2", "output")
        w.store(out, Expr(f"{sampler}({vel}, {at})", "vec2", 2.0, None), own)
        w.feature("velocity advected by itself")
    names = [vel] if self_advected else []
    for hints, dtype, low, high, out_hints in chosen:
        field = w.add_array(rng.choice(hints), dtype, "input", low=low, high=high)
        w.unused.remove(field)
        names.append(field)
        out = w.add_array(rng.choice(out_hints), dtype, "output")
        w.store(out, Expr(f"{sampler}({field}, {at})", dtype, max(abs(low), abs(high)), None), own)
    w.feature(f"fields advected ({', '.join(names)})")
    return w


def generate(rng: random.Random, name: str, seed: int):
    if channels.chooses_channels(seed):
        return channels.generate(rng, name, seed)
    if chooses_field_advection(seed):  # its own stream: the other stencil kernels keep their draws
        return advect_fields(rng, name, seed).finish("Stencil kernel (semi-Lagrangian advection of several fields)")
    s = Stencil(rng, name, seed)
    w = s.w
    kinds = [k for k in STENCILS if not (k is tuple_gradient and s.nd == 1)]
    kind = rng.choice(kinds)
    needs_sampler = kind in (blur, advect, static_taps) or s.border in ("clamp", "guard")
    if kind in (blur, advect, static_taps) and s.border not in ("clamp", "guard"):
        s.border = rng.choice(["clamp", "guard"])
    if needs_sampler:
        s.sampler = s.make_sampler()
    if rng.random() < 0.5:
        w.option("enable_backward", "False")
    if kind is wave and s.field == "temp":  # a temperature diffuses; it obeys no wave equation
        s.field = w.rename_array(s.field, "u")
    out = s.out = w.add_array(s.field_state(rng.choice(OUTPUT_NAMES[kind.__name__])), "float32", "output")
    own = ", ".join(s.idx)
    if s.border == "return":
        with w.block(f"if {s.border_test()}:"):
            w.emit("return")
        w.feature("early return at the border")
    body_block = None
    if s.border == "interior":
        body_block = w.block(f"if {s.interior_test()}:")
        body_block.__enter__()
        w.feature("interior test")
    value = kind(s)
    if kind in STATE_STENCILS:
        # a new iterate, time level, diffused, sourced or advected field is a state the step computes:
        # stored, never added to the array's old value or blended with it (KernelWriter.update_outputs)
        w.output_update_share = 0.0
    # a Jacobi sweep that can also sum its squared change; its new value holds no multiple of the old
    # (a decay or reaction term of the centre: the change would repeat the formula's own terms)
    residual = kind is jacobi and rng.random() < RESIDUAL_SHARE
    if rng.random() < 0.5 and kind in POINT_TERMS:
        value = pointwise_term(s, value, POINT_TERMS[kind])
    decay_in_place = False
    if not residual and rng.random() < 0.4:
        name = rng.choice(["DECAY", "DAMPING", "FADE"])
        if kind is jacobi and name == "DECAY":
            name = "OMEGA"  # a Jacobi sweep's weight
        factor = grid_value(rng, 0.5, 0.9375) if name == "OMEGA" else \
            rng.choice(DAMPING_FACTORS if name == "DAMPING" else DECAY_FACTORS)
        decay = w.add_constant(name, factor)
        scaled = rng.random() < 0.5
        if kind is jacobi:
            # weighted (damped) Jacobi: the new iterate relaxed from the old one by the weight. A
            # Jacobi iterate scaled down, or added to the array's old value, is no method at all
            center = s.center
            value = Expr(f"(1.0 - {decay.src}) * {center.src} + {decay.src} * {value.src}", "float32",
                         max(center.mag, value.mag), None, atom=False)
            w.feature("weighted Jacobi")
        elif (scaled and not s.derived) or kind in STATE_STENCILS:
            # a new time level, a diffusion step or an advected field is a state, not a sum: damped,
            # never accumulated; a smoothed field may fade (a blur that dissipates). A measured one
            # (a gradient) is never scaled by a damping factor: it decays only as an accumulator
            if not (value.atom and value.src in w.scopes[-1]):
                value = s.local("r", value.src, value.mag, None)
            w.emit(f"{value.src} *= {decay.src}")
        else:
            decay_in_place = True
    if decay_in_place:  # a decaying accumulator (a trail, a history): the old value scaled, the new added
        w.emit(f"{out}[{own}] *= {decay.src}")
        w.emit(f"{out}[{own}] += {value.src}")
        w.note_bound(out, value.mag)
        w.make_inout(out)
        w.feature("decayed accumulation (*= then +=)")
    elif residual:
        residual_norm(s, out, value)
    else:
        w.store(out, value, own)
    if body_block is not None:
        body_block.__exit__(None, None, None)
        with w.block("else:"):
            # where the stencil cannot reach: the field kept (a state, a smoothed field), or no
            # measure at all (a gradient there is not the field's value)
            kept = Expr("0.0", "float32", 0.0, 0) if s.derived else Expr(f"{s.field}[{own}]", "float32", 1.0, 10)
            w.store(out, kept, own)
    s.drop_unused_sampler()
    return w.finish("Grid-stencil kernel")
