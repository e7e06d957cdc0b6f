"""Multi-way conditionals: if/elif/else chains, nested branches, compound conditions."""
from __future__ import annotations

import ast
import random
import textwrap

from synthesis.categories.common import add_inputs, add_output, pick_dim
from synthesis.exprgen import ARITH_OPS, Expr, ExprGen, KernelWriter, join_q
from synthesis.realism import first_use


def branch_chain(w: KernelWriter, gen: ExprGen, targets: list[Expr], depth: int) -> None:
    arms = w.rng.randint(2, 4)
    for arm in range(arms):
        keyword = "if" if arm == 0 else "elif"
        header = f"{keyword} {gen.condition(1).src}:" if arm < arms - 1 or w.rng.random() < 0.3 else "else:"
        with w.block(header):
            for t in w.rng.sample(targets, w.rng.randint(1, len(targets))):
                value = gen.float_expr(w.rng.randint(0, 2), exact=t.q is not None)
                while value.src == t.src:  # `r1 = r1`
                    value = gen.float_expr(w.rng.randint(0, 2), exact=t.q is not None)
                w.emit(f"{t.src} = {value.src}")
            if depth > 0 and w.rng.random() < 0.4:
                branch_chain(w, gen, targets, depth - 1)
                w.feature("nested branches")
        if header == "else:":
            break


def declare_overwritten_inits(w: KernelWriter, declared_at: dict[str, int]) -> None:
    """A target every path assigns before reading starts as `float(0.0)`, as people declare it."""
    body = ast.parse(textwrap.dedent("\n".join(w.lines)))
    for name, line in declared_at.items():
        index = next(k for k, stmt in enumerate(body.body) if stmt.lineno == line + 1)
        if first_use(body.body[index + 1:], name) == "assigned":
            w.lines[line] = f"    {name} = float(0.0)"


def generate(rng: random.Random, name: str, seed: int):
    w = KernelWriter(rng, name, "multi_conditional", seed, pick_dim(rng, nd_prob=0.15))
    loads = add_inputs(w, "float32", rng.randint(1, 3))
    gen = ExprGen(w, tuple(rng.sample(ARITH_OPS, 5)), loads=loads)
    targets = []
    for _ in range(rng.randint(1, 3)):
        init = gen.float_expr(1, exact=True)
        # Targets stay exact (so later conditions may read them) when every arm assigns exact values.
        exact = rng.random() < 0.5
        targets.append(w.declare(w.fresh("r"), init, 64.0 if exact else 256.0, 20 if exact else None))
    declared_at = {t.src: len(w.lines) - len(targets) + k for k, t in enumerate(targets)}
    chains = rng.randint(1, 2)
    for _ in range(chains):
        branch_chain(w, gen, targets, 1)
    declare_overwritten_inits(w, declared_at)
    for t in targets:
        w.store(add_output(w), t)
    w.feature(f"{chains} branch chain(s), {len(targets)} branch-assigned values")
    return w.finish("Multi-way conditional kernel")
