"""Arithmetic: expression trees over + - * /, min, max, abs on float32 or int32 arrays."""
from __future__ import annotations

import random

from synthesis.categories.common import (add_inputs, add_output, call_helper, float_helper, float_statements, pick_dim,
                                         realistic_extras)
from synthesis.exprgen import ARITH_OPS, ExprGen, KernelWriter
from synthesis.spec import KernelSpec


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    w = KernelWriter(rng, name, "arithmetic", seed, pick_dim(rng, nd_prob=0.25))
    if rng.random() < 0.35:
        loads = add_inputs(w, "int32", rng.randint(1, 3), low=-100, high=100, grid_bits=0)
        gen = ExprGen(w, loads=loads)
        for _ in range(rng.randint(0, 3)):
            w.assign(gen.int_expr(rng.randint(1, 3)), "n")
        for _ in range(rng.randint(1, 2)):
            w.store(add_output(w, "int32"), gen.meaningful(gen.computed(lambda: gen.int_expr(rng.randint(1, 3)))))
        w.feature("int32 / // % semantics")
        return w.finish("Integer arithmetic kernel")
    loads = add_inputs(w, "float32", rng.randint(1, 4))
    ops = tuple(rng.sample(ARITH_OPS, rng.randint(3, len(ARITH_OPS))))
    gen = ExprGen(w, ops, loads=loads)
    realistic_extras(w, gen, loads)
    if rng.random() < 0.15:
        w.assign(call_helper(gen, *float_helper(w, ops, rng.randint(2, 3))))
    float_statements(w, gen, rng.randint(0, 4))
    for _ in range(rng.randint(1, 2)):
        w.store(add_output(w), gen.output_expr(rng.randint(1, 3)))  # reads every variable nothing reads yet
    w.feature("ops " + ", ".join(sorted(ops)))
    return w.finish("Float arithmetic kernel")
