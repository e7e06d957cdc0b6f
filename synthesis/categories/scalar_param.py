"""Scalar parameters: float and int arguments passed by value, scaling values and bounding loops."""
from __future__ import annotations

import random

from synthesis.categories.common import accumulate_loop, add_inputs, add_output, pick_dim, realistic_extras
from synthesis.exprgen import ARITH_OPS, ExprGen, KernelWriter
from synthesis.spec import KernelSpec

FLOAT_HINTS = ["scale", "alpha", "beta", "offset", "bias", "gain", "threshold", "eps"]


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    w = KernelWriter(rng, name, "scalar_param", seed, pick_dim(rng, nd_prob=0.25))
    loads = add_inputs(w, "float32", rng.randint(1, 2))
    for hint in rng.sample(FLOAT_HINTS, rng.randint(1, 3)):
        w.add_scalar(hint, "float32", rng.choice([k / 16 for k in range(-32, 33) if k]))
    if rng.random() < 0.5:
        w.add_scalar(rng.choice(["shift", "k", "stride"]), "int32", rng.randint(-5, 9))
    gen = ExprGen(w, tuple(rng.sample(ARITH_OPS, 6)), loads=loads)
    realistic_extras(w, gen, loads)
    for _ in range(rng.randint(0, 3)):
        w.assign(gen.float_expr(rng.randint(1, 3)))
    if rng.random() < 0.35:
        trips = rng.choice([2, 3, 4, 5, 6, 8, 10, 16])
        bound = w.add_scalar("n_iter", "int32", trips)
        accumulate_loop(w, gen, f"for s in range({bound.src}):", "s", trips, depth=1)
        w.feature("loop bound from argument")
    for _ in range(rng.randint(1, 2)):
        w.store(add_output(w), gen.output_expr(rng.randint(1, 3)))
    scalars = [a for a in w.args if a.role == "scalar"]
    w.feature(f"{len(scalars)} scalar parameters")
    return w.finish("Scalar-parameter kernel")
