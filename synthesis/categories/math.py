"""Math: the formulas people write with transcendental and rounding builtins (a hypotenuse, a root mean
square, a polar angle, polar to Cartesian, a decay or an oscillation along the grid, a Cauchy loss, a
gamma correction, a fractional part, a soft minimum), one to three per kernel, each stored as an output
of its own; sometimes a `@wp.func` helper with a purpose (a sigmoid, a softplus, a Gaussian falloff, a
smoothstep, a soft clip, a robust loss) on an input, with neighbours, a stencil, a gather, a module
constant or a padded launch around them (`common.realistic_extras`).

A kernel has one purpose (MATH_THEMES): its formulas, helper and noise all come from one theme (polar
coordinates, rounding, tone curves, robust losses...), as a person writes a `to_polar` or a `quantize`
kernel, never an angle, a fractional part and a noise sample of unrelated values side by side.

Some kernels sample Perlin noise as Warp's graph-capture example does (`state = wp.rand_init(seed)`,
`wp.noise(state, frequency * p)` at a point built from the inputs): the seed and the frequency
are arguments."""
from __future__ import annotations

import random
import re
from typing import NamedTuple

from synthesis.categories.common import OUTPUT_NAMES, add_inputs, add_output, draw_formulas, pick_dim, realistic_extras
from synthesis.categories.helpers import call
from synthesis.exprgen import (WORD, ARITH_OPS, MATH_FORMULAS, MATH_OPS, OPERAND_QUANTITY, SPECIAL_MATH_FORMULAS, Expr, ExprGen,
                              KernelWriter, formula_features)
from synthesis.spec import KernelSpec


class MathTheme(NamedTuple):
    """What a math kernel is for: the formulas (exprgen's MATH_FORMULAS and SPECIAL_MATH_FORMULAS) and the
    helpers (synthesis.categories.helpers) that serve it, the share of its kernels that sample noise, and its
    weight among the themes of kernels without a special formula."""
    formulas: tuple[str, ...]
    helpers: tuple[str, ...] = ()
    noise_share: float = 0.0
    weight: int = 10
    fewest_inputs: int = 1  # two where every formula takes two values (a radius and an angle from x and y)


# One entry per purpose. A kernel with a special formula draws among the themes that hold it; one without
# draws by `weight`, which evens out the themes over all kernels: the special formulas (a quarter of kernels)
# land mostly in angles and rounding, which are therefore drawn less often otherwise.
MATH_THEMES: dict[str, MathTheme] = {
    "polar coordinates": MathTheme(("hypotenuse", "polar angle", "polar to Cartesian"), weight=11, fewest_inputs=2),
    "sizes": MathTheme(("hypotenuse", "sphere radius from a volume", "frustum height", "circle area", "ellipse area",
                        "sphere surface area", "sphere volume", "circumference", "cylinder volume"), weight=7),
    "levels": MathTheme(("root mean square", "decibels", "log2 compression", "amplitude from decibels",
                         "smooth absolute value"), weight=9),
    "angles": MathTheme(("polar angle", "angle from a cosine", "angle from a sine", "arctangent soft limit",
                         "polar to Cartesian", "angle in degrees"), weight=5),
    "rounding": MathTheme(("fractional part", "snap to a grid", "round up to a multiple", "fractional part toward zero",
                           "wrap to a period", "distance to the nearest integer", "cell index"), weight=4),
    "signals along the grid": MathTheme(("exponential decay", "oscillation", "damped oscillation"),
                                        ("gaussian", "smoothstep"), 0.5, weight=11),
    "tone curves": MathTheme(("gamma correction", "log2 compression", "decibels", "arctangent soft limit",
                              "Reinhard tone map"), ("sigmoid", "smoothstep", "soft_clip"), weight=8),
    "robust losses": MathTheme(("Cauchy loss", "Welsch loss", "Geman-McClure loss"),
                               ("huber", "log_cosh", "pseudo_huber", "cauchy"), weight=11),
    "smooth approximations": MathTheme(("soft minimum", "soft maximum", "smooth absolute value", "arctangent soft limit",
                                        "GELU activation"), ("sigmoid", "softplus", "soft_clip"), weight=10),
}
# Formulas and helpers that compute one quantity two ways (`x - wp.floor(x)` beside `x - wp.trunc(x)`, a
# Cauchy loss inline beside the `cauchy` helper): a kernel computes one of each set.
SAME_QUANTITY = (frozenset({"fractional part", "fractional part toward zero", "wrap to a period"}),
                 frozenset({"Cauchy loss", "cauchy"}), frozenset({"decibels", "amplitude from decibels", "log2 compression"}),
                 frozenset({"angle from a cosine", "angle from a sine"}),
                 frozenset({"circle area", "ellipse area", "sphere surface area"}))  # pi r^2 and 4 pi r^2: one value
# The formulas that take an earlier formula's result, and the results they take: a level in decibels of a
# root mean square, the area of a disc whose radius is a distance, the view's height at a distance, a
# wrapped coordinate snapped to a grid, a tone-mapped radiance gamma encoded.
FED_BY = {
    "decibels": ("root mean square", "hypotenuse", "smooth absolute value"),
    "log2 compression": ("root mean square", "hypotenuse", "smooth absolute value"),
    "circle area": ("hypotenuse", "sphere radius from a volume"),
    # a sphere's surface and a circle's circumference of a radius computed; the volume of a sphere whose
    # radius is a distance (not of one computed from a volume: that volume again)
    "sphere surface area": ("hypotenuse", "sphere radius from a volume"),
    "circumference": ("hypotenuse", "sphere radius from a volume"),
    "sphere volume": ("hypotenuse",),
    "frustum height": ("hypotenuse",),
    "snap to a grid": ("wrap to a period",),  # a position in the periodic box, quantized
    "round up to a multiple": ("wrap to a period",),
    "cell index": ("wrap to a period",),  # the cell of the periodic box a position falls in
    "gamma correction": ("Reinhard tone map",),  # tone mapped, then gamma encoded
    "angle in degrees": ("polar angle", "angle from a cosine", "angle from a sine"),
}
# Formulas that mean something only of an earlier result (degrees of an angle, not of any value).
FED_ONLY = frozenset({"angle in degrees"})
# The results FED_BY names that are never negative (a level takes no `wp.abs` of them).
NONNEGATIVE_RESULTS = frozenset({"root mean square", "hypotenuse", "smooth absolute value", "sphere radius from a volume",
                                 "wrap to a period", "Reinhard tone map"})
# The share of the formulas FED_BY names that take such a result where the kernel holds one.
FED_SHARE = 0.6
# The share of kernels whose theme has a formula that feeds another that draw such a formula first.
FEEDER_FIRST_SHARE = 0.5
# Helpers (synthesis.categories.helpers) a math kernel applies to an input: every theme's.
MATH_HELPERS = tuple(dict.fromkeys(h for theme in MATH_THEMES.values() for h in theme.helpers))
# The share of the kernels of a theme with helpers that apply one.
HELPER_SHARE = 0.6
# The share of math kernels whose first formula is one of SPECIAL_MATH_FORMULAS (an angle from a
# cosine, a value snapped to a grid, decibels...): without them no kernel called acos, asin, atan, tan,
# ceil, round, trunc, log2, log10 or cbrt, which real code calls.
SPECIAL_SHARE = 0.25


def special_formula_of(seed: int) -> str | None:
    """The special formula math kernel `seed` computes first, or None: a stream of its own, so the
    other math kernels keep every draw."""
    stream = random.Random(seed ^ 0x3A7B)
    return stream.choice(SPECIAL_MATH_FORMULAS) if stream.random() < SPECIAL_SHARE else None


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    w = KernelWriter(rng, name, "math", seed, pick_dim(rng, nd_prob=0.3))
    special = special_formula_of(seed)
    theme_name = theme_of(rng, special)
    theme = MATH_THEMES[theme_name]
    loads = add_inputs(w, "float32", rng.randint(theme.fewest_inputs, 3))
    gen = ExprGen(w, tuple(rng.sample(MATH_OPS, rng.randint(2, 6))) + tuple(rng.sample(ARITH_OPS, rng.randint(1, 4))),
                  loads=loads)
    realistic_extras(w, gen, loads)
    helper = rng.choice(theme.helpers) if theme.helpers and rng.random() < HELPER_SHARE else None
    noise = rng.random() < theme.noise_share
    # a kernel of its own rarely computes a single one-line formula: mostly two or three values
    count = rng.randint(1, 3) if helper or noise else rng.choice([1, 2, 2, 2, 3, 3, 3, 3])
    kinds = theme.formulas
    held = {helper, special}

    stored: list[tuple[Expr, str]] = []

    def draw() -> tuple[Expr, str] | None:
        """The special formula until one is drawn (an operand may not suit it), then any of the theme's
        that computes no quantity the kernel already holds; on an earlier result where it takes one."""
        nonlocal special
        open_kinds = [k for k in kinds if k not in held and not same_quantity(k, held)]
        if not special and not open_kinds:  # every formula of the theme computed, one way or another
            return None
        feeders = [k for k in open_kinds if any(k in FED_BY[c] for c in kinds if c in FED_BY)]
        if not stored and feeders and rng.random() < FEEDER_FIRST_SHARE:  # a result others can take, first
            open_kinds = feeders
        kind = special or rng.choice(open_kinds)
        fed = feed(w, stored, kind)
        if kind in FED_ONLY and not fed:  # no angle computed yet to convert
            return None
        drawn = gen.math_formula(kind, fed and fed[0], nonnegative=bool(fed) and fed[1] in NONNEGATIVE_RESULTS)
        if drawn is not None:
            special = None
            held.add(drawn[1])
        return drawn

    draw_formulas(gen, draw, max(count, 1) if special else count, stored)
    if not stored and not helper and not noise:  # one named value always takes one of the theme's formulas
        for kind in kinds:
            stored = draw_formulas(gen, lambda: gen.math_formula(kind), 1)
            if stored:
                break
        else:  # of any value a fractional part can be taken
            stored = draw_formulas(gen, lambda: gen.math_formula("fractional part"), 1)
    # the inputs the formulas read: a helper and a noise point work on them
    read = w.inputs_read(loads, of=" ".join(value.src for value, _ in stored)) if stored else []
    if helper:  # a helper with a purpose (a sigmoid, a Gaussian falloff, a smoothstep) on an input
        w.store(add_output(w, holds=helper), call(w, helper, w.load(rng.choice(read or loads))))
    if noise:  # at a point made of the values the formulas read, the rest after them
        noise_field(rng, w, read + [n for n in loads if n not in read])
    for value, kind in stored:
        w.store(add_output(w, value.type, holds=kind), gen.meaningful(value))
    w.describe_operations("math", MATH_OPS, operators=False)
    for name in formula_features(w.lines + w.helpers):
        w.feature(name)
    return w.finish(f"Math-function kernel for {theme_name}")


def feed(w: KernelWriter, stored: list[tuple[Expr, str]], kind: str) -> tuple[Expr, str] | None:
    """The earlier result formula `kind` takes (FED_BY), named as a local that its own output then stores,
    and the formula that computed it; None where the kernel holds none, or (1 - FED_SHARE) of the time
    (always where `kind`'s operand is a quantity, OPERAND_QUANTITY)."""
    sources = [k for k, (_, held) in enumerate(stored) if held in FED_BY.get(kind, ())]
    # a size (an area, a circumference) takes the length computed: of the value the length came from
    # (a volume, two legs) it would be a second quantity of one value
    if not sources or (kind not in FED_ONLY and kind not in OPERAND_QUANTITY and w.rng.random() >= FED_SHARE):
        return None
    k = w.rng.choice(sources)
    value, held = stored[k]
    if not WORD.fullmatch(value.src):
        value = w.assign(value, OUTPUT_NAMES[held][0])
        stored[k] = (value, held)
    return value, held


def same_quantity(kind: str, held: set) -> bool:
    """Whether `kind` computes a quantity a formula or helper in `held` computes another way."""
    return any(kind in alike and held & (alike - {kind}) for alike in SAME_QUANTITY)


def theme_of(rng: random.Random, special: str | None) -> str:
    """The theme of a math kernel: one that holds its special formula, if it computes one, else one by weight."""
    if special:
        return rng.choice([name for name, theme in MATH_THEMES.items() if special in theme.formulas])
    return rng.choices(list(MATH_THEMES), weights=[theme.weight for theme in MATH_THEMES.values()])[0]


def noise_field(rng: random.Random, w: KernelWriter, loads: list[str]) -> None:
    """`amplitude * wp.noise(state, frequency * p)`: 1-D, 2-D or 3-D noise at a point built from inputs."""
    seed = w.add_scalar(rng.choice(["seed", "kernel_seed", "noise_seed"]), "int32", rng.randint(1, 1 << 20))
    frequency = w.add_scalar(rng.choice(["frequency", "freq", "scale"]), "float32", rng.choice([0.75, 1.5, 2.0, 3.25]))
    amplitude = w.add_scalar(rng.choice(["amplitude", "amp", "strength"]), "float32", rng.choice([0.5, 1.0, 2.5]))
    taken = {a.name for a in w.args} | {n for line in w.lines + w.load_lines for n in re.findall(r"\w+", line)}
    state, point_name = (next(f"{base}{k or ''}" for k in range(99) if f"{base}{k or ''}" not in taken)
                         for base in ("state", "point"))
    w.emit(f"{state} = wp.rand_init({seed.src})")
    values = [w.load(name).src for name in loads]
    dims = rng.choice([d for d in (1, 2, 3) if d <= len(values) + 1])
    if dims == 1:
        point = values[0]
    else:  # the thread's grid coordinate fills a missing one
        comps = (values + [w.coordinate(0).src])[:dims]
        point = f"wp.vec{dims}({', '.join(comps)})"
    w.emit(f"{point_name} = {frequency.src} * {point}")
    out = add_output(w, holds="noise")
    w.store(out, Expr(f"{amplitude.src} * wp.noise({state}, {point_name})", "float32", amplitude.mag * 2.0, None, atom=False))
    w.feature(f"{dims}-D Perlin noise")
