"""Arithmetic: the formulas people write by hand with + - * /, min, max, abs on float32 or int32 arrays
(an affine map, a midpoint, a weighted average, an interpolation, a squared difference, a polynomial in
Horner form, a clamp, a smoothstep; for integers a midpoint, a non-negative remainder, a round down to a
multiple, a bit field, the low bits), one to three per kernel, each stored as an output of its own; now and then a `@wp.func`
helper with a purpose (a blend, a squared error, a Huber loss), neighbours, a stencil, a gather, a module
constant or a padded launch around them (`common.realistic_extras`)."""
from __future__ import annotations

import random

from synthesis.categories import bits, quantized
from synthesis.categories.common import (add_gather, add_inputs, add_output, draw_formulas, early_return, pick_dim,
                                         realistic_extras)
from synthesis.categories.helpers import call
from synthesis.exprgen import ARITH_FORMULAS, ARITH_OPS, INT_FORMULAS, ExprGen, KernelWriter
from synthesis.spec import KernelSpec


def more_formulas(seed: int, count: int) -> int:
    """`count` formulas, raised for some kernels by a draw of its own (so the others keep theirs): a
    one-line kernel becomes two values in 70% of draws (alone, `lane = p & 31` or `x * wp.abs(x)` is
    a kernel repeated seed after seed), three become four in 25% (a packed word decoded field by field)."""
    breadth = random.Random(seed ^ 0xA817F)
    if count == 1 and breadth.random() < 0.7:
        return 2
    if count == 3 and breadth.random() < 0.25:
        return 4
    return count


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    if bits.chooses_bits(seed):
        return bits.generate(rng, name, seed)
    if quantized.chooses_quantized(seed):
        return quantized.generate(rng, name, seed)
    w = KernelWriter(rng, name, "arithmetic", seed, pick_dim(rng, nd_prob=0.25))
    if rng.random() < 0.35:
        formulas = more_formulas(seed, rng.choice([1, 2, 2, 3, 3]))  # as the float kernels: mostly two or three values
        # several formulas mostly decode one value (its bit fields, its residues, its multiple), as
        # such kernels do, rather than each taking an input of its own
        inputs = 1 if formulas >= 2 and rng.random() < 0.8 else rng.randint(1, 3)
        loads = add_inputs(w, "int32", inputs, low=-100, high=100, grid_bits=0)
        gen = ExprGen(w, loads=loads)
        if len(w.dim) == 1 and rng.random() < 0.15:
            early_return(w)
        if len(w.dim) == 1 and rng.random() < 0.2:
            add_gather(w, gen, rng.choice(loads))  # e.g. a label looked up through a permutation
        stored = draw_formulas(gen, gen.int_formula, formulas)
        if not stored:  # every formula needs named values: one of one input is always there
            stored = draw_formulas(gen, lambda: gen.int_formula(rng.choice(("non-negative remainder",
                                                                               "round down to a multiple"))), 1)
        for value, kind in stored:
            w.store(add_output(w, "int32", holds=kind), gen.meaningful(value))
        w.feature("int32 / // % semantics")
        w.describe_operations("ops", ("min", "max", "abs", "clamp"), operators=True)
        return w.finish("Integer arithmetic kernel")
    loads = add_inputs(w, "float32", rng.randint(1, 4))
    ops = tuple(rng.sample(ARITH_OPS, rng.randint(3, len(ARITH_OPS))))
    gen = ExprGen(w, ops, loads=loads)
    realistic_extras(w, gen, loads)
    helped = False
    if rng.random() < 0.15:  # a helper with a purpose: a blend of two inputs, a squared error, a Huber loss
        kind = rng.choice(["blend", "squared_error", "huber"] if len(loads) >= 2 else ["squared_error", "huber"])
        a = w.load(loads[0])
        if kind == "blend":
            t = w.add_scalar(rng.choice(["alpha", "t", "mix"]), "float32", rng.choice([0.25, 0.5, 0.75]))
            value = call(w, kind, a, w.load(loads[1]), t)
        else:
            value = call(w, kind, a)
        w.store(add_output(w, holds=kind), value)
        gen.formula_operands.append(a)  # the formulas that follow work on the helper's input
        helped = True
    # a kernel of its own rarely computes a single one-line formula: mostly two or three values
    stored = draw_formulas(gen, gen.arith_formula, rng.randint(0, 3) if helped else more_formulas(seed, rng.choice([1, 2, 2, 3, 3])))
    if not stored and not helped:  # one named value always takes an affine map
        stored = draw_formulas(gen, lambda: gen.arith_formula("affine map"), 1)
    for value, kind in stored:
        w.store(add_output(w, holds=kind), gen.meaningful(value))
    w.describe_operations("ops", ("min", "max", "abs", "clamp"), operators=True)
    return w.finish("Float arithmetic kernel")


__all__ = ["ARITH_FORMULAS", "INT_FORMULAS", "generate"]
