"""Nested loops: two or three levels with constant or argument bounds over 1-D/2-D arrays."""
from __future__ import annotations

import random

from synthesis.categories.common import accumulate_loop, add_inputs, add_output, range_header, trip_test
from synthesis.exprgen import ARITH_OPS, Expr, ExprGen, KernelWriter
from synthesis.spec import KernelSpec


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    n = rng.choice([32, 64, 128, 256])
    w = KernelWriter(rng, name, "nested_loop", seed, (n,))
    outer, inner = rng.choice([2, 3, 4, 5, 6, 8]), rng.choice([3, 4, 5, 6, 8, 10, 12, 16])
    loads = add_inputs(w, "float32", rng.randint(1, 2))
    # A row per thread (n x inner) and a weight per inner index (outer x inner): loops index them.
    rows = w.add_array(rng.choice(["table", "rows", "grid"]), "float32", "input", shape=(n, inner))
    weights = w.add_array(rng.choice(["weights", "coef", "kern"]), "float32", "input", shape=(outer, inner))
    gen = ExprGen(w, tuple(rng.sample(ARITH_OPS, 5)), loads=loads)
    use_arg = rng.random() < 0.4
    bound = w.add_scalar("inner", "int32", inner).src if use_arg else None
    total = w.declare(w.fresh("total"), Expr("0.0", "float32", 0.0, 0), 0.0, 10)
    w.scopes[-1].pop(total.src)
    bound_mag = 0.0
    with w.block(f"for r in range({outer}):"):
        w.scopes[-1]["r"] = Expr("r", "int32", float(outer), 0)
        header = range_header(rng, "c", inner, bound) if rng.random() < 0.5 else f"for c in range({bound or inner}):"
        if "-1, -1" in header or ", 2)" in header:
            header = f"for c in range({bound or inner}):"

        def extra(acc: Expr) -> None:
            if rng.random() < 0.3:
                test = trip_test(gen, "c")
                if test is not None:
                    with w.block(f"if {test.src}:"):
                        w.emit(rng.choice(["continue", "break"]))

        row = Expr(f"{rows}[tid, c]", "float32", 2.0, 10)
        wt = Expr(f"{weights}[r, c]", "float32", 2.0, 10)
        # the weights' row is the outer trip's: without them every outer trip would sum the same row
        base = rng.choice([wt, Expr(f"{row.src} * {wt.src}", "float32", 4.0, 20, atom=False)])
        w.scopes.append({"c": Expr("c", "int32", float(inner), 0), "__row": row, "__wt": wt})
        acc = accumulate_loop(w, gen, header, "c", inner, depth=rng.randint(0, 2), extra=extra, base=base)
        w.scopes.pop()
        if rng.random() < 0.4 and outer * inner <= 16:
            third = rng.randint(2, 3)
            acc2 = accumulate_loop(w, gen, f"for d in range({third}):", "d", third, depth=1, init=acc)
            acc = acc2
        w.emit(f"{total.src} = {total.src} + {acc.src}")
        bound_mag = outer * acc.mag
    w.scopes[-1][total.src] = Expr(total.src, "float32", bound_mag, None)
    w.store(add_output(w), Expr(total.src, "float32", bound_mag, None))
    w.feature(f"{outer}x{inner} loops" + (", argument bound" if use_arg else ""))
    return w.finish("Nested-loop kernel")
