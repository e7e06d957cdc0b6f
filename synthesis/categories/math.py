"""Math: the formulas people write with transcendental and rounding builtins (a hypotenuse, a root mean
square, a polar angle, polar to Cartesian, a decay or an oscillation along the grid, a Cauchy loss, a
gamma correction, a fractional part, a soft minimum), one to three per kernel, each stored as an output
of its own; sometimes a `@wp.func` helper with a purpose (a sigmoid, a softplus, a Gaussian falloff, a
smoothstep, a soft clip, a robust loss) on an input, with neighbours, a stencil, a gather, a module
constant or a padded launch around them (`common.realistic_extras`).

Some kernels sample Perlin noise as Warp's graph-capture example does (`state = wp.rand_init(seed)`,
`wp.noise(state, frequency * p)` at a point built from the inputs): the seed and the frequency
are arguments."""
from __future__ import annotations

import random
import re

from synthesis.categories.common import add_inputs, add_output, draw_formulas, pick_dim, realistic_extras
from synthesis.categories.helpers import call
from synthesis.exprgen import ARITH_OPS, MATH_OPS, SPECIAL_MATH_FORMULAS, Expr, ExprGen, KernelWriter, formula_features
from synthesis.spec import KernelSpec


# Helpers (synthesis.categories.helpers) a math kernel applies to an input.
MATH_HELPERS = ("sigmoid", "softplus", "gaussian", "smoothstep", "soft_clip", "log_cosh", "pseudo_huber", "cauchy")
# The share of math kernels whose first formula is one of SPECIAL_MATH_FORMULAS (an angle from a
# cosine, a value snapped to a grid, decibels...): without them no kernel called acos, asin, atan, tan,
# ceil, round, trunc, log2, log10 or cbrt, which real code calls.
SPECIAL_SHARE = 0.4


def special_formula_of(seed: int) -> str | None:
    """The special formula math kernel `seed` computes first, or None: a stream of its own, so the
    other math kernels keep every draw."""
    stream = random.Random(seed ^ 0x3A7B)
    return stream.choice(SPECIAL_MATH_FORMULAS) if stream.random() < SPECIAL_SHARE else None


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    w = KernelWriter(rng, name, "math", seed, pick_dim(rng, nd_prob=0.2))
    loads = add_inputs(w, "float32", rng.randint(1, 3))
    gen = ExprGen(w, tuple(rng.sample(MATH_OPS, rng.randint(2, 6))) + tuple(rng.sample(ARITH_OPS, rng.randint(1, 4))),
                  loads=loads)
    realistic_extras(w, gen, loads)
    helper = rng.choice(MATH_HELPERS) if rng.random() < 0.35 else None
    noise = rng.random() < 0.2
    # a kernel of its own rarely computes a single one-line formula: mostly two or three values
    count = rng.randint(0, 3) if helper or noise else rng.choice([1, 2, 2, 3, 3])
    special = special_formula_of(seed)

    def draw() -> tuple[Expr, str] | None:
        """The special formula until one is drawn (an operand may not suit it), then any."""
        nonlocal special
        drawn = gen.math_formula(special)
        if drawn is not None:
            special = None
        return drawn

    stored = draw_formulas(gen, draw, max(count, 1) if special else count)
    if not stored and not helper and not noise:  # one named value always takes a fractional part
        stored = draw_formulas(gen, lambda: gen.math_formula("fractional part"), 1)
    # the inputs the formulas read: a helper and a noise point work on them
    read = w.inputs_read(loads, of=" ".join(value.src for value, _ in stored)) if stored else []
    if helper:  # a helper with a purpose (a sigmoid, a Gaussian falloff, a smoothstep) on an input
        w.store(add_output(w, holds=helper), call(w, helper, w.load(rng.choice(read or loads))))
    if noise:  # at a point made of the values the formulas read, the rest after them
        noise_field(rng, w, read + [n for n in loads if n not in read])
    for value, kind in stored:
        w.store(add_output(w, holds=kind), gen.meaningful(value))
    w.describe_operations("math", MATH_OPS, operators=False)
    for name in formula_features(w.lines + w.helpers):
        w.feature(name)
    return w.finish("Math-function kernel")


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
