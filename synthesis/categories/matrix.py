"""Matrix: mat22/33/44 products with matrices and vectors, transpose, outer, element access."""
from __future__ import annotations

import random
import re

from synthesis.categories.common import add_inputs, add_output, pick_dim
from synthesis.exprgen import Expr, ExprGen, KernelWriter, formula_features
from synthesis.spec import KernelSpec


SKEW = re.compile(r"^0\.5 \* \((\w+) - wp\.transpose\(\1\)\)$")


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    w = KernelWriter(rng, name, "matrix", seed, pick_dim(rng))
    n = rng.choice([2, 3, 3, 4])
    mtype, vtype = f"mat{n}{n}", f"vec{n}"
    loads = add_inputs(w, mtype, rng.randint(1, 2), low=-1.0, high=1.0)
    if rng.random() < 0.7:
        loads += add_inputs(w, vtype, rng.randint(1, 2), low=-1.0, high=1.0)
    if rng.random() < 0.4:
        loads += add_inputs(w, "float32", 1, low=-1.0, high=1.0)
    gen = ExprGen(w, loads=loads)
    for _ in range(rng.randint(1, 3)):
        w.assign(gen.computed(lambda: gen.mat_expr(mtype, rng.randint(1, 3))), "m")
    outputs = rng.sample(["mat", "vec", "elem"], rng.randint(1, 2))
    for kind in outputs:
        if kind == "mat":
            w.store(add_output(w, mtype), gen.fold_unread(gen.computed(lambda: gen.mat_expr(mtype, rng.randint(1, 2)))))
        elif kind == "vec":
            w.store(add_output(w, vtype), gen.fold_unread(gen.mat_vec(mtype, rng.randint(0, 1))))
        else:
            m = w.assign(gen.mat_expr(mtype, rng.randint(1, 2)), "m")
            while w.is_bare(m):  # an element of an input as it is: compute something first
                m = w.assign(gen.mat_expr(mtype, 1), "m")
            r, c = rng.randrange(n), rng.randrange(n)
            if r == c and SKEW.search(w.defs.get(m.src, m.src)):
                c = (r + 1) % n  # a skew part's diagonal is zero
            elem = f"{m.src}[{r}, {c}]" if rng.random() < 0.5 else f"{m.src}[{r}][{c}]"
            w.store(add_output(w), Expr(elem, "float32", m.mag, m.q))
    w.feature(f"{mtype} " + "/".join(outputs))
    for name in formula_features(w.lines):
        w.feature(name)
    return w.finish("Matrix kernel")
