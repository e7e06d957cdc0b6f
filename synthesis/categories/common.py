"""Building blocks that several categories share: launch shapes, inputs, helpers, loops."""
from __future__ import annotations

import random

from synthesis.exprgen import Expr, ExprGen, KernelWriter, join_q

INPUT_HINTS = ["a", "b", "x", "y", "src", "vals", "data", "inp", "u", "w", "p", "q"]
OUTPUT_HINTS = ["out", "result", "dst", "res", "y_out", "output"]


def pick_dim(rng: random.Random, nd_prob: float = 0.0) -> tuple[int, ...]:
    if rng.random() < nd_prob:
        if rng.random() < 0.7:
            return (rng.choice([8, 12, 16, 24]), rng.choice([8, 16, 20, 32]))
        return (rng.choice([4, 6, 8]), rng.choice([4, 5, 8]), rng.choice([4, 6, 8]))
    return (rng.choice([64, 100, 128, 256, 500, 1000, 1024]),)


def add_inputs(w: KernelWriter, dtype: str, count: int, low: float = -2.0, high: float = 2.0,
               grid_bits: int = 10) -> list[str]:
    hints = w.rng.sample(INPUT_HINTS, count)
    return [w.add_array(h, dtype, "input", low=low, high=high, grid_bits=grid_bits) for h in hints]


def add_output(w: KernelWriter, dtype: str = "float32", role: str = "output") -> str:
    return w.add_array(w.rng.choice(OUTPUT_HINTS), dtype, role)


def float_statements(w: KernelWriter, gen: ExprGen, count: int, depth: tuple[int, int] = (1, 3)) -> None:
    for _ in range(count):
        w.assign(gen.float_expr(w.rng.randint(*depth)))


def float_helper(w: KernelWriter, ops: tuple[str, ...], arity: int, depth: int = 2) -> tuple[str, int, float]:
    """Emit an @wp.func taking `arity` floats; returns its name, arity and a bound on its result.

    The body sees only its parameters, bounded by PARAM_MAG; call sites pass bounded arguments.
    """
    params = ["x", "y", "z"][:arity]
    name = f"{w.name}_fn{len(w.helpers)}"
    saved = w.scopes
    w.scopes = [{p: Expr(p, "float32", HELPER_PARAM_MAG, None) for p in params}]
    try:
        body = ExprGen(w, ops, leaf_prob=0.25).float_expr(depth)
        while all(p not in body.src for p in params):
            body = ExprGen(w, ops, leaf_prob=0.25).float_expr(depth)
    finally:
        w.scopes = saved
    sig = ", ".join(f"{p}: float" for p in params)
    w.add_helper(f"@wp.func\ndef {name}({sig}) -> float:\n    return {body.src}", name)
    w.feature("@wp.func helper")
    return name, arity, body.mag


HELPER_PARAM_MAG = 4.0


def call_helper(gen: ExprGen, name: str, arity: int, mag: float) -> Expr:
    args = []
    for _ in range(arity):
        e = gen.float_expr(1)
        if e.mag > HELPER_PARAM_MAG:
            e = Expr(f"wp.clamp({e.src}, -4.0, 4.0)", "float32", HELPER_PARAM_MAG, None)
        args.append(e.src)
    return Expr(f"{name}({', '.join(args)})", "float32", mag, None)


def accumulate_loop(w: KernelWriter, gen: ExprGen, header: str, loop_var: str, trips: int,
                    depth: int = 2, init: Expr | None = None, extra=None, base: Expr | None = None) -> Expr:
    """`acc = init; for ...: acc = acc + expr(loop_var)`: the accumulator's bound covers all trips."""
    w.scopes.append({loop_var: Expr(loop_var, "int32", float(2 * trips + 2), 0)})
    body = gen.float_expr(depth)
    if base is not None:
        sym = w.rng.choice(["*", "+", "-"])
        mag = base.mag * body.mag if sym == "*" else base.mag + body.mag
        q = None if base.q is None or body.q is None else (base.q + body.q if sym == "*" else max(base.q, body.q))
        body = Expr(f"{base.operand()} {sym} {body.operand()}", "float32", mag, q, atom=False)
    w.scopes.pop()
    init = init or Expr("0.0", "float32", 0.0, 0)
    acc = w.fresh("acc")
    var = w.declare(acc, init, init.mag + trips * body.mag, join_q(init.q, body.q))
    with w.block(header):
        w.scopes[-1][loop_var] = Expr(loop_var, "int32", float(2 * trips + 2), 0)
        if extra:
            extra(var)
        if w.rng.choice([True, False]):  # both spellings Warp accepts
            w.emit(f"{acc} += {body.src}")
        else:
            w.emit(f"{acc} = {acc} + {body.operand()}")
    return var


def range_header(rng: random.Random, var: str, trips: int, bound_src: str | None = None) -> str:
    """A `for` header that runs exactly `trips` times, in one of several shapes."""
    shape = rng.choice(["plain", "plain", "start", "step", "reverse"])
    bound = bound_src or str(trips)
    if shape == "plain" or bound_src is not None and shape == "reverse":
        return f"for {var} in range({bound}):"
    if shape == "start":
        return f"for {var} in range(0, {bound}):"
    if shape == "step":
        return f"for {var} in range(0, {trips * 2}, 2):"
    return f"for {var} in range({trips - 1}, -1, -1):"
