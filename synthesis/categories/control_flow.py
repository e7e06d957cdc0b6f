"""Control flow: if/else, for loops with constant or argument bounds, while, break/continue, where."""
from __future__ import annotations

import random

from synthesis.categories.common import (accumulate_loop, add_inputs, add_output, pick_dim, range_header,
                                         realistic_extras, trip_test, trip_update)
from synthesis.exprgen import ARITH_OPS, Expr, ExprGen, KernelWriter, join_q
from synthesis.spec import KernelSpec


def if_else(w: KernelWriter, gen: ExprGen) -> Expr:
    """`r = x; if c: r = a` or, declared as Warp does, `r = float(0.0); if c: r = a else: r = b`."""
    a, b = gen.float_expr(w.rng.randint(1, 2)), gen.float_expr(w.rng.randint(1, 2))
    while b.src == a.src:
        b = gen.float_expr(w.rng.randint(1, 2))
    shape = w.rng.choice(["if", "if_else", "if_else", "ternary"])
    cond = gen.condition(1)
    if shape == "ternary":
        return w.assign(Expr(f"{a.src} if {cond.src} else {b.src}", "float32", max(a.mag, b.mag), join_q(a.q, b.q),
                             atom=False), "r")
    init = gen.float_expr(1) if shape == "if" else Expr("0.0", "float32", 0.0, 0, lit=True)
    while init.src == a.src:
        init = gen.float_expr(1)
    var = w.declare(w.fresh("r"), init, max(a.mag, b.mag, init.mag), join_q(a.q, b.q, init.q))
    w.note_varying(var.src, a.src, b.src)
    with w.block(f"if {cond.src}:"):
        w.emit(f"{var.src} = {a.src}")
    if shape == "if_else":
        with w.block("else:"):
            w.emit(f"{var.src} = {b.src}")
    return var


def loop(w: KernelWriter, gen: ExprGen) -> Expr:
    trips = w.rng.choice([3, 4, 5, 6, 8, 10, 12, 16, 20, 32])
    bound = None
    if w.rng.random() < 0.4:
        bound = w.add_scalar(w.rng.choice(["count", "steps", "iters", "m"]), "int32", trips).src
        w.feature("argument loop bound")
    header = range_header(w.rng, "k", trips, bound)
    extra = None
    if w.rng.random() < 0.4:
        def extra(acc: Expr) -> None:
            kw = w.rng.choice(["break", "continue"])
            test = trip_test(gen, "k")
            if test is None:
                return
            with w.block(f"if {test.src}:"):
                w.emit(kw)
            w.feature(kw)
    return accumulate_loop(w, gen, header, "k", trips, depth=w.rng.randint(1, 2), extra=extra)


def while_loop(w: KernelWriter, gen: ExprGen) -> Expr:
    trips = w.rng.choice([3, 4, 5, 6, 8, 10])
    counter = w.fresh("c")
    w.scopes.append({counter: Expr(counter, "int32", float(trips), 0)})  # a trip's value may read its count
    body = gen.float_expr(w.rng.randint(1, 2))
    while body.lit or not w.varies(body.src):
        body = gen.meaningful(body)
    w.scopes.pop()
    name = w.fresh("acc")
    update, mag, q = trip_update(w, name, body, counter, trips, 0.0, 0)
    acc = w.declare(name, Expr("0.0", "float32", 0.0, 0), mag, q)
    w.note_varying(acc.src, body.src)
    w.emit(f"{counter} = int(0)")
    with w.block(f"while {counter} < {trips}:"):
        w.emit(update)
        w.emit(f"{counter} = {counter} + 1")
    w.feature("while")
    return acc


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    w = KernelWriter(rng, name, "control_flow", seed, pick_dim(rng))
    loads = add_inputs(w, "float32", rng.randint(1, 3))
    gen = ExprGen(w, tuple(rng.sample(ARITH_OPS, 5)), loads=loads)
    realistic_extras(w, gen, loads)
    makers = [if_else, loop, while_loop, lambda w_, g: w_.assign(g.where(2))]
    for maker in rng.sample(makers, rng.randint(1, 3)):
        maker(w, gen)
    for _ in range(rng.randint(1, 2)):
        w.store(add_output(w), gen.output_expr(rng.randint(1, 2)))
    return w.finish("Control-flow kernel")
