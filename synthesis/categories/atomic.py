"""Atomics: atomic_add/sub/min/max into shared bins, and per-thread slots whose old value is used.

Inputs lie on a coarse grid (multiples of 1/8) and values are sums and products of them, so every
float sum is exact in any order: the result does not depend on which thread wins a race.
"""
from __future__ import annotations

import random

from synthesis.categories.common import add_inputs, add_output, pick_dim
from synthesis.exprgen import Expr, ExprGen, KernelWriter
from synthesis.spec import KernelSpec

ATOMICS = ["atomic_add", "atomic_sub", "atomic_min", "atomic_max"]


def exact_value(gen: ExprGen, dtype: str, depth: int, contributions: int) -> Expr:
    """A value whose sum over `contributions` threads stays exact (float) or far from overflow."""
    for _ in range(20):
        e = gen.float_expr(depth, exact=True) if dtype == "float32" else gen.int_expr(depth)
        total = 4 + contributions * e.mag
        if dtype == "int32" and total < 2**30:
            return e
        if dtype == "float32" and e.q is not None and total * 2.0**e.q < 2.0**24:
            return e
    return gen.leaf(dtype) if dtype == "int32" else Expr("1.0", "float32", 1.0, 0)


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    dim = (rng.choice([64, 128, 256, 512]),)
    w = KernelWriter(rng, name, "atomic", seed, dim)
    dtype = rng.choice(["float32", "float32", "int32"])
    if dtype == "float32":
        loads = add_inputs(w, "float32", rng.randint(1, 2), low=-4.0, high=4.0, grid_bits=3)
    else:
        loads = add_inputs(w, "int32", rng.randint(1, 2), low=-50, high=50, grid_bits=0)
    gen = ExprGen(w, ("add", "sub", "mul", "min", "max", "abs", "neg"), loads=loads)
    used = []
    for _ in range(rng.randint(1, 3)):
        value = exact_value(gen, dtype, rng.randint(0, 2), dim[0])
        op = rng.choice(ATOMICS)
        used.append(op)
        bins = rng.choice([1, 4, 8, 16, 32])
        target = w.add_array(rng.choice(["bins", "acc", "hist", "total", "counts"]), dtype,
                             rng.choice(["output", "inout"]), shape=(bins,), low=-4, high=4,
                             grid_bits=3 if dtype == "float32" else 0)
        if bins == 1:
            slot = "0"
        elif rng.random() < 0.5:
            slot = f"tid % {bins}"
        else:
            idx = w.add_array("idx", "int32", "index", index_high=bins - 1)
            slot = f"{idx}[tid]"
        w.emit(f"wp.{op}({target}, {slot}, {value.src})")
        w.note_bound(target, 4 + dim[0] * value.mag)
    if rng.random() < 0.5:
        # Each thread owns its slot, so the returned old value is deterministic.
        slots = w.add_array("slots", dtype, "inout", low=-4, high=4, grid_bits=3 if dtype == "float32" else 0)
        value = exact_value(gen, dtype, 1, 1)
        op = rng.choice(ATOMICS)
        used.append(op)
        old = w.assign(Expr(f"wp.{op}({slots}, tid, {value.src})", dtype, 4.0, 3 if dtype == "float32" else 0), "old")
        w.note_bound(slots, 4 + value.mag)
        prev = w.add_array("prev", dtype, "output")
        w.store(prev, old)
        w.feature("old value returned")
    w.feature(f"{dtype} " + ", ".join(sorted(set(used))))
    return w.finish("Atomic-update kernel")
