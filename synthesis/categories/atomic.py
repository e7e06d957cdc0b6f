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
    grid = 3 if dtype == "float32" else 0
    for _ in range(rng.randint(1, 3)):
        value = exact_value(gen, dtype, rng.randint(0, 2), dim[0])
        op = rng.choice(ATOMICS)
        used.append(op)
        extreme = op in ("atomic_min", "atomic_max")
        # min/max start from values near zero (inout), so data moves them.
        # min/max over many values would all reach the input range's end: a few values per bin
        bins = rng.choice([dim[0] // 4, dim[0] // 8]) if extreme else rng.choice([1, 4, 8, 16, 32])
        role = "inout" if extreme else rng.choice(["output", "inout"])
        span = (0.5 if dtype == "float32" else 5) if extreme else 4
        target = w.add_array(rng.choice(["bins", "acc", "hist", "total", "counts"]), dtype, role, shape=(bins,),
                             low=-span, high=span, grid_bits=grid)
        if extreme:  # the data itself, which straddles the start values, so every bin can move
            load = w.load(rng.choice(loads))
            value = load if rng.random() < 0.6 else Expr(f"-{load.src}", dtype, load.mag, load.q, atom=False)
        uniform = not w.varies(value.src)
        if bins == 1:
            slot = "0"
        elif rng.random() < 0.5 and not uniform:
            slot = f"tid % {bins}"
        else:  # a data-dependent bin: a count of `1` per bin then means something
            idx = w.add_array("idx", "int32", "index", index_high=bins - 1)
            slot = w.load(idx).src
            w.feature("index array")
        if op == "atomic_add" and rng.random() < 0.4:
            w.emit(f"{target}[{slot}] += {value.src}")  # Warp makes `+=` on an array atomic
            used[-1] = "+= on an array"
        else:
            w.emit(f"wp.{op}({target}, {slot}, {value.src})")
        w.note_bound(target, 4 + dim[0] * value.mag)
    if rng.random() < 0.5:
        # Each thread owns its slot, so the returned old value is deterministic.
        value = exact_value(gen, dtype, 1, 1)
        # stored values over the value's own range, so that a min or max changes about half the slots
        # (values in [-4, 4] against `max(x, tid)` changed none: the output was a copy of the input)
        span = max(4, int(value.mag))
        slots = w.add_array("slots", dtype, "inout", low=-span, high=span, grid_bits=grid)
        op = rng.choice(ATOMICS)
        used.append(op)
        old = w.assign(Expr(f"wp.{op}({slots}, tid, {value.src})", dtype, 4.0, grid), "old")
        w.note_bound(slots, 4 + value.mag)
        prev = w.add_array("prev", dtype, "output")
        # what the update changed: the stored old value alone would copy the input
        w.store(prev, Expr(f"{value.operand()} - {old.src}", dtype, 4.0 + value.mag, grid, atom=False))
        w.feature("old value returned")
    w.feature(f"{dtype} " + ", ".join(sorted(set(used))))
    return w.finish("Atomic-update kernel")
