"""Combined: loops, branches, math, vectors, helpers and atomics in one kernel."""
from __future__ import annotations

import random

from synthesis.categories import control_flow, multi_conditional
from synthesis.categories.common import add_inputs, add_output, call_helper, float_helper, pick_dim, realistic_extras
from synthesis.exprgen import ARITH_OPS, FORMULA_OPS, MATH_OPS, ExprGen, KernelWriter, formula_features
from synthesis.spec import KernelSpec


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    w = KernelWriter(rng, name, "combined", seed, pick_dim(rng))
    loads = add_inputs(w, "float32", rng.randint(1, 3))
    ops = tuple(rng.sample(ARITH_OPS, 5)) + tuple(rng.sample(MATH_OPS, 3))
    if rng.random() < 0.5:
        ops += tuple(rng.sample(FORMULA_OPS, rng.randint(1, 2)))
    gen = ExprGen(w, ops, loads=loads)
    realistic_extras(w, gen, loads)
    parts = rng.sample(["branch", "loop", "while", "helper", "vector", "atomic", "where", "formula", "piecewise"],
                       rng.randint(2, 4))
    for part in parts:
        if part == "branch":
            control_flow.if_else(w, gen)
        elif part in ("loop", "while"):
            # a loop with a purpose (a filter, a series, a Newton iteration; a bisection for `while`)
            floats = [n for n in gen.loads if w.arg(n).dtype == "float32"]
            form = "bisection while" if part == "while" else rng.choice(control_flow.FLOAT_LOOP_FORMS)
            for result in control_flow.LOOP_FORMS[form](w, floats):
                w.assign(result.value, "lp")
        elif part == "where":
            w.assign(gen.where(2))
        elif part == "formula":
            drawn = gen.arith_formula()
            if drawn is None:  # no named value to build it on
                parts = [p for p in parts if p != "formula"]
            else:
                w.assign(drawn[0], "f")
                w.feature(drawn[1])
        elif part == "piecewise":
            # a piecewise form (a dead zone, a Huber loss, an upwind difference, ...) feeds the rest
            floats = [n for n in gen.loads if w.arg(n).dtype == "float32"]
            draw = multi_conditional.Draw(w, floats)
            for built in multi_conditional.draw_pieces(draw, 1, multi_conditional.FLOAT_FORMS):
                for r in built:
                    w.assign(r.value, "pw")
        elif part == "helper":
            w.assign(call_helper(gen, *float_helper(w, ops, rng.randint(1, 3))))
        elif part == "vector":
            vecs = add_inputs(w, "vec3", 1)
            gen.loads.extend(vecs)
            w.assign(gen.vec_scalar("vec3", 1), "s")
        else:
            bins = rng.choice([1, 8, 16])
            target = w.add_array("acc", "float32", "output", shape=(bins,))
            v = gen.float_expr(1, exact=True)
            if v.q is None or (w.dim[0] * v.mag + 1) * 2.0**v.q >= 2.0**24 or not w.varies(v.src):
                v = w.load(loads[0])  # a sum of one value per bin would be the same in every bin
            slot = "0" if bins == 1 else f"tid % {bins}"  # one bin: a single total (`tid % 1` is always 0)
            w.emit(f"wp.atomic_add({target}, {slot}, {v.src})")
            w.note_bound(target, w.dim[0] * v.mag)
    w.store(add_output(w), gen.output_expr(rng.randint(1, 3)))
    w.feature(", ".join(parts))
    for name in formula_features(w.lines + w.helpers):
        w.feature(name)
    return w.finish("Combined kernel")
