"""Math: transcendental and rounding builtins mixed into arithmetic trees, sometimes via @wp.func."""
from __future__ import annotations

import random

from synthesis.categories.common import (add_inputs, add_output, call_helper, float_helper, float_statements, pick_dim,
                                         realistic_extras)
from synthesis.exprgen import ARITH_OPS, MATH_OPS, ExprGen, KernelWriter
from synthesis.spec import KernelSpec


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    w = KernelWriter(rng, name, "math", seed, pick_dim(rng, nd_prob=0.2))
    loads = add_inputs(w, "float32", rng.randint(1, 3))
    math_ops = tuple(rng.sample(MATH_OPS, rng.randint(2, 6)))
    ops = math_ops + tuple(rng.sample(ARITH_OPS, rng.randint(1, 4)))
    gen = ExprGen(w, ops, loads=loads)
    realistic_extras(w, gen, loads)
    helper = float_helper(w, ops, rng.randint(1, 3)) if rng.random() < 0.35 else None
    float_statements(w, gen, rng.randint(0, 3))
    if helper:
        w.assign(call_helper(gen, *helper))
    for _ in range(rng.randint(1, 2)):
        w.store(add_output(w), gen.output_expr(rng.randint(1, 3)))
    if not any(f"wp.{op}(" in line for line in w.lines for op in math_ops):
        forced = None
        while forced is None or forced.mag > 256.0:  # _float_op declines ops that would overflow
            forced = gen._float_op(rng.choice(math_ops), 2)
        w.store(add_output(w), gen.meaningful(forced))
    w.feature("math " + ", ".join(sorted(math_ops)))
    return w.finish("Math-function kernel")
