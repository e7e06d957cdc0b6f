"""Atomics: atomic_add/sub/min/max into shared bins, and per-thread slots whose old value is used.

Inputs lie on a coarse grid (multiples of 1/8) and values are sums and products of them, so every
float sum is exact in any order: the result does not depend on which thread wins a race.

A quarter of the kernels accumulate in float64, as Warp's topology-optimisation example sums its
losses: float64 arrays and parameters, `wp.float64(...)` casts of float32 data and of constants
(Warp does not mix precisions: a float literal is float32, so every float64 constant is cast).
Values are products of grid values and divisions by powers of two, exact in float64 whatever the
order of the atomic updates; a `wp.pow` term rounds, well inside float64's tolerance.
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


def f64(value: float) -> str:
    """A float64 constant as Warp code spells it."""
    return f"wp.float64({value!r})"


def float64_accumulation(rng: random.Random, w: KernelWriter) -> None:
    """A float64 reduction: per-element terms in float64 summed into a few slots (atomic_add or `+=`)."""
    n = w.dim[0]
    density = w.add_array(rng.choice(["density", "rho", "fraction", "phi"]), "float64", "input", low=0.0, high=1.0,
                          grid_bits=rng.choice([6, 8, 10]))
    d = w.load(density)
    terms: list[str] = []
    kind = rng.choice(["volume", "weighted", "penalised", "mixed", "grayness", "moment"])
    count = w.add_scalar(rng.choice(["count", "normalization", "total_cells"]), "float64",
                         float(rng.choice([n // 4, n // 2, n, 2 * n])))
    if kind == "volume":  # mean density
        value = f"{d.src} / {count.src}"
        mag = 1.0
    elif kind == "grayness":  # how far densities are from 0 or 1 (a topology optimiser's penalty)
        scale = rng.choice([1.0, 4.0])
        gray = f"{d.src} * ({f64(1.0)} - {d.src})"
        value = f"{f64(scale)} * {gray} / {count.src}" if scale != 1.0 else f"{gray} / {count.src}"
        mag = scale * 0.25
    elif kind == "moment":  # second moment of the density about a reference level
        level = rng.choice([0.0, 0.25, 0.5])
        if level:
            w.emit(f"dev = {d.src} - {f64(level)}")
            value = f"dev * dev / {count.src}"
        else:
            value = f"{d.src} * {d.src} / {count.src}"
        mag = 1.0
    elif kind == "weighted":  # float32 data joins through a cast
        weight = w.add_array(rng.choice(["weight", "area", "volume"]), "float32", "input", low=0.0, high=2.0,
                             grid_bits=4)
        wv = w.load(weight)
        w.emit(f"contrib = wp.float64({wv.src}) * {d.src}")
        value = f"contrib / {count.src}"
        mag = 2.0
        terms.append("float32 cast to float64")
    else:  # SIMP-like stiffness scaling of an energy, floor on the density
        energy = w.add_array(rng.choice(["energy", "strain_energy", "work"]), "float64", "input", low=0.0, high=4.0,
                             grid_bits=6)
        e = w.load(energy)
        floor = rng.choice([0.0625, 0.125, 0.001])
        w.emit(f"rho_c = wp.max({d.src}, {f64(floor)})")
        if kind == "penalised":
            penal = w.add_scalar("penal", "float64", rng.choice([2.0, 3.0]))
            ratio = w.add_scalar(rng.choice(["emin_ratio", "min_ratio"]), "float64", rng.choice([0.0625, 0.125]))
            w.emit(f"scale = {ratio.src} + ({f64(1.0)} - {ratio.src}) * wp.pow(rho_c, {penal.src})")
        else:
            w.emit(f"scale = rho_c * {f64(rng.choice([0.5, 2.0, 0.25]))}")
        value = f"-scale * {e.src} / {count.src}" if rng.random() < 0.5 else f"scale * {e.src} / {count.src}"
        mag = 4.0 * 2.0
    keep_term = rng.random() < 0.4  # the per-element term kept too, as float32 for a float32 consumer
    if keep_term:
        w.emit(f"term = {value}")
        value = "term"
    slots = rng.choice([1, 1, 4, 8])
    loss = w.add_array(rng.choice(["loss", "total", "objective", "accum"]), "float64", "output", shape=(slots,))
    slot = "0" if slots == 1 else f"tid % {slots}"
    if rng.random() < 0.5:
        w.emit(f"wp.atomic_add({loss}, {slot}, {value})")
    else:
        w.emit(f"{loss}[{slot}] += {value}")
    w.note_bound(loss, 4.0 + n * mag)
    if keep_term:
        out = w.add_array(rng.choice(["per_cell", "cell_term", "cell_value"]), "float32", "output")
        w.emit(f"{out}[tid] = float({value})")
        w.note_bound(out, mag)
        terms.append("float64 to float32 cast")
    w.feature(f"float64 accumulation ({kind})" + "".join(f"; {t}" for t in terms))


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    dim = (rng.choice([64, 128, 256, 512]),)
    w = KernelWriter(rng, name, "atomic", seed, dim)
    if rng.random() < 0.25:
        float64_accumulation(rng, w)
        return w.finish("Atomic float64 accumulation kernel")
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
