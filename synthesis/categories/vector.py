"""Vector: vec2/3/4 arithmetic, dot, cross, length, normalize, component access."""
from __future__ import annotations

import random

from synthesis.categories.common import add_gather, add_inputs, add_output, pick_dim
from synthesis.exprgen import ExprGen, KernelWriter, formula_features
from synthesis.spec import KernelSpec


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    w = KernelWriter(rng, name, "vector", seed, pick_dim(rng))
    vtype = rng.choice(["vec2", "vec3", "vec3", "vec4"])
    loads = add_inputs(w, vtype, rng.randint(1, 3))
    if rng.random() < 0.4:
        loads += add_inputs(w, "float32", 1)
    gen = ExprGen(w, loads=loads)
    if rng.random() < 0.3:
        add_gather(w, gen, loads[0])  # e.g. positions of neighbours listed in an index array
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.6:
            w.assign(gen.computed(lambda: gen.vec_expr(vtype, rng.randint(1, 3))), "t")
        else:
            w.assign(gen.computed(lambda: gen.vec_scalar(vtype, rng.randint(0, 2))), "s")
    outputs = rng.choice([("v",), ("s",), ("v", "s")])
    for kind in outputs:
        if kind == "v":
            w.store(add_output(w, vtype), gen.fold_unread(gen.computed(lambda: gen.vec_expr(vtype, rng.randint(1, 2)))))
        else:
            w.store(add_output(w), gen.fold_unread(gen.computed(lambda: gen.vec_scalar(vtype, rng.randint(0, 2)))))
    w.feature(vtype)
    for name in formula_features(w.lines):
        w.feature(name)
    return w.finish("Vector kernel")
