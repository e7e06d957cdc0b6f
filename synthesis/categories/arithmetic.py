"""Arithmetic: + - * /, min, max, abs on float32 or int32 arrays; the formulas people write by hand
(an affine map, a midpoint, an interpolation, a polynomial, a clamp) and expression trees."""
from __future__ import annotations

import random

from synthesis.categories.common import (FORMULA_SHARE, add_inputs, add_output, draw_formulas, float_statements, pick_dim,
                                         realistic_extras, unread)
from synthesis.categories.helpers import call
from synthesis.exprgen import ARITH_OPS, ExprGen, KernelWriter
from synthesis.spec import KernelSpec

def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    w = KernelWriter(rng, name, "arithmetic", seed, pick_dim(rng, nd_prob=0.25))
    if rng.random() < 0.35:
        loads = add_inputs(w, "int32", rng.randint(1, 3), low=-100, high=100, grid_bits=0)
        gen = ExprGen(w, loads=loads)
        stored = draw_formulas(gen, gen.int_formula, rng.randint(1, 2)) if rng.random() < FORMULA_SHARE else []
        for _ in range(rng.randint(0, 1 if stored else 3)):
            w.assign(gen.int_expr(rng.randint(1, 3)), "n")
        for value in stored:
            w.store(add_output(w, "int32"), gen.meaningful(value))
        for _ in range(0 if stored and not unread(w, "int32") else rng.randint(1, 2)):
            w.store(add_output(w, "int32"), gen.meaningful(gen.computed(lambda: gen.int_expr(rng.randint(1, 3)))))
        w.feature("int32 / // % semantics")
        w.describe_operations("ops", ("min", "max", "abs", "clamp"), operators=True)
        return w.finish("Integer arithmetic kernel")
    loads = add_inputs(w, "float32", rng.randint(1, 4))
    ops = tuple(rng.sample(ARITH_OPS, rng.randint(3, len(ARITH_OPS))))
    gen = ExprGen(w, ops, loads=loads)
    realistic_extras(w, gen, loads)
    if rng.random() < 0.15:  # a helper with a purpose: a blend of two inputs, a squared error, a Huber loss
        kind = rng.choice(["blend", "squared_error", "huber"] if len(loads) >= 2 else ["squared_error", "huber"])
        a = w.load(loads[0])
        if kind == "blend":
            t = w.add_scalar(rng.choice(["alpha", "t", "mix"]), "float32", rng.choice([0.25, 0.5, 0.75]))
            value = call(w, kind, a, w.load(loads[1]), t)
        else:
            value = call(w, kind, a)
        w.store(add_output(w), value)
    stored = draw_formulas(gen, gen.arith_formula, rng.randint(1, 2)) if rng.random() < FORMULA_SHARE else []
    float_statements(w, gen, rng.randint(0, 1 if stored else 4))
    for value in stored:
        w.store(add_output(w), gen.meaningful(value))
    # an expression tree over what nothing reads yet (every variable ends up read)
    for _ in range(0 if stored and not unread(w, "float32") else rng.randint(1, 2)):
        w.store(add_output(w), gen.output_expr(rng.randint(1, 3)))
    w.describe_operations("ops", ("min", "max", "abs", "clamp"), operators=True)
    return w.finish("Float arithmetic kernel")
