"""Math: the formulas people write with transcendental and rounding builtins (a hypotenuse, a polar
angle, a decay or an oscillation along the grid, a Cauchy loss, a gamma correction, a fractional part, a
soft minimum) and such builtins mixed into arithmetic trees; sometimes a `@wp.func` helper with a purpose
(a sigmoid, a softplus, a Gaussian falloff, a smoothstep, a soft clip, a robust loss) on an input.

Some kernels sample Perlin noise as Warp's graph-capture example does (`state = wp.rand_init(seed)`,
`wp.noise(state, frequency * p)` at a point built from the inputs): the seed and the frequency
are arguments."""
from __future__ import annotations

import random
import re

from synthesis.categories.common import (FORMULA_SHARE, add_inputs, add_output, draw_formulas, float_statements, pick_dim,
                                         realistic_extras, unread)
from synthesis.categories.helpers import call
from synthesis.exprgen import ARITH_OPS, FORMULA_OPS, MATH_OPS, Expr, ExprGen, KernelWriter, formula_features
from synthesis.spec import KernelSpec


# Helpers (synthesis.categories.helpers) a math kernel applies to an input.
MATH_HELPERS = ("sigmoid", "softplus", "gaussian", "smoothstep", "soft_clip", "log_cosh", "pseudo_huber", "cauchy")


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    w = KernelWriter(rng, name, "math", seed, pick_dim(rng, nd_prob=0.2))
    loads = add_inputs(w, "float32", rng.randint(1, 3))
    math_ops = tuple(rng.sample(MATH_OPS, rng.randint(2, 6)))
    formulas = tuple(rng.sample(FORMULA_OPS, rng.randint(1, 2))) if rng.random() < 0.5 else ()
    ops = math_ops + formulas + tuple(rng.sample(ARITH_OPS, rng.randint(1, 4)))
    gen = ExprGen(w, ops, loads=loads)
    realistic_extras(w, gen, loads)
    helper = rng.choice(MATH_HELPERS) if rng.random() < 0.35 else None
    stored = draw_formulas(gen, gen.math_formula, rng.randint(1, 2)) if rng.random() < FORMULA_SHARE else []
    float_statements(w, gen, rng.randint(0, 1 if stored else 3))
    if helper:  # a helper with a purpose (a sigmoid, a Gaussian falloff, a smoothstep) on an input
        w.store(add_output(w), call(w, helper, w.load(rng.choice(loads))))
    if rng.random() < 0.2:
        noise_field(rng, w, loads)
    for value in stored:
        w.store(add_output(w), gen.meaningful(value))
    # an expression tree over what nothing reads yet (every variable ends up read)
    for _ in range(0 if stored and not unread(w, "float32") else rng.randint(1, 2)):
        w.store(add_output(w), gen.output_expr(rng.randint(1, 3)))
    if not any(f"wp.{op}(" in line for line in w.lines for op in MATH_OPS):
        forced = None
        while forced is None or forced.mag > 256.0:  # _float_op declines ops that would overflow
            forced = gen._float_op(rng.choice(math_ops), 2)
        w.store(add_output(w), gen.meaningful(forced))
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
    out = add_output(w)
    w.store(out, Expr(f"{amplitude.src} * wp.noise({state}, {point_name})", "float32", amplitude.mag * 2.0, None, atom=False))
    w.feature(f"{dims}-D Perlin noise")
