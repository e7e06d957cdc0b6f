"""Arithmetic: + - * /, min, max, abs on float32 or int32 arrays; the formulas people write by hand
(an affine map, a midpoint, an interpolation, a polynomial, a clamp) and expression trees."""
from __future__ import annotations

import random

from synthesis.categories.common import (add_inputs, add_output, call_helper, float_helper, float_statements, pick_dim,
                                         realistic_extras)
from synthesis.exprgen import ARITH_OPS, Expr, ExprGen, KernelWriter
from synthesis.spec import KernelSpec

FORMULA_SHARE = 0.7  # kernels whose first outputs are formulas (the rest: expression trees only)


def draw_formulas(gen: ExprGen, draw, count: int) -> list[Expr]:
    """Up to `count` formulas from `draw()` (ExprGen.arith_formula or int_formula), their names
    recorded as features; a draw the kernel cannot build (no second named value) is tried again."""
    out: list[Expr] = []
    for _ in range(3 * count):
        if len(out) == count:
            break
        drawn = draw()
        if drawn is not None and drawn[0].src not in {e.src for e in out}:
            out.append(drawn[0])
            gen.w.feature(drawn[1])
    return out


def unread(w: KernelWriter, dtype: str) -> bool:
    """Whether a variable of `dtype` (not a thread index) is still read by nothing."""
    return any(v.src not in w.tid_names and not w.is_read(v.src) for v in w.visible(dtype))


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
        return w.finish("Integer arithmetic kernel")
    loads = add_inputs(w, "float32", rng.randint(1, 4))
    ops = tuple(rng.sample(ARITH_OPS, rng.randint(3, len(ARITH_OPS))))
    gen = ExprGen(w, ops, loads=loads)
    realistic_extras(w, gen, loads)
    if rng.random() < 0.15:
        w.assign(call_helper(gen, *float_helper(w, ops, rng.randint(2, 3))))
    stored = draw_formulas(gen, gen.arith_formula, rng.randint(1, 2)) if rng.random() < FORMULA_SHARE else []
    float_statements(w, gen, rng.randint(0, 1 if stored else 4))
    for value in stored:
        w.store(add_output(w), gen.meaningful(value))
    # an expression tree over what nothing reads yet (every variable ends up read)
    for _ in range(0 if stored and not unread(w, "float32") else rng.randint(1, 2)):
        w.store(add_output(w), gen.output_expr(rng.randint(1, 3)))
    w.feature("ops " + ", ".join(sorted(ops)))
    return w.finish("Float arithmetic kernel")
