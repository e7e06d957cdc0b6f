"""Multi-way conditionals: if/elif/else chains, nested branches, compound conditions."""
from __future__ import annotations

import random

from synthesis.categories.common import add_inputs, add_output, pick_dim, realistic_extras
from synthesis.exprgen import ARITH_OPS, Expr, ExprGen, KernelWriter, join_q
from synthesis.sampled_run import degenerate_written


def branch_chain(w: KernelWriter, gen: ExprGen, targets: list[Expr], depth: int, allow_else: bool = True) -> None:
    """An if/elif(/else) chain assigning some of `targets` in each arm.

    A nested chain assigns only what its arm has not, and a chain that follows another has no
    `else`, so no assignment is overwritten on every path before it is read.
    """
    arms = w.rng.randint(2, 4)
    for arm in range(arms):
        keyword = "if" if arm == 0 else "elif"
        last = arm == arms - 1 and allow_else and w.rng.random() >= 0.3
        header = "else:" if last else f"{keyword} {gen.condition(1).src}:"
        with w.block(header):
            assigned = w.rng.sample(targets, w.rng.randint(1, len(targets)))
            for t in assigned:
                value = gen.float_expr(w.rng.randint(0, 2), exact=t.q is not None)
                while value.src == t.src:  # `r1 = r1`
                    value = gen.float_expr(w.rng.randint(0, 2), exact=t.q is not None)
                w.emit(f"{t.src} = {value.src}")
                w.note_varying(t.src, value.src)
            rest = [t for t in targets if t not in assigned]
            if depth > 0 and rest and w.rng.random() < 0.4:
                branch_chain(w, gen, rest, depth - 1)
                w.feature("nested branches")
        if last:
            break


# Draws per kernel before one whose outputs, run at 64 sampled points, are constant or a copy of an
# input at 90% of them or more is kept regardless (about 1 draw in 10 is redrawn).
MAX_DRAWS = 8


def generate(rng: random.Random, name: str, seed: int):
    """A branch chain kernel. Its outputs pass through branches, which realism's point evaluator
    does not follow; the kernel is run at sampled points (synthesis.sampled_run) and redrawn while
    an output is the same everywhere or an input copied through (e.g. `if 2.0 > b: r = b`)."""
    for _ in range(MAX_DRAWS):
        spec = draw_kernel(rng, name, seed)
        if not degenerate_written(spec, points=64, share=0.9):
            return spec
    return spec


def draw_kernel(rng: random.Random, name: str, seed: int):
    w = KernelWriter(rng, name, "multi_conditional", seed, pick_dim(rng, nd_prob=0.15))
    loads = add_inputs(w, "float32", rng.randint(1, 3))
    gen = ExprGen(w, tuple(rng.sample(ARITH_OPS, 5)), loads=loads)
    realistic_extras(w, gen, loads)
    targets, inits = [], {}
    for _ in range(rng.randint(1, 3)):
        init = gen.float_expr(1, exact=True)
        # Targets stay exact (so later conditions may read them) when every arm assigns exact values.
        exact = rng.random() < 0.5
        targets.append(w.declare(w.fresh("r"), init, 64.0 if exact else 256.0, 20 if exact else None))
        inits[targets[-1].src] = init.src
    chains = rng.randint(1, 2)
    for chain in range(chains):
        branch_chain(w, gen, targets, 1, allow_else=chain == 0)
    for t in targets:
        if not any(line.startswith("        ") and line.strip().startswith(f"{t.src} = ") for line in w.lines):
            w.reassigned.discard(t.src)  # no branch assigns it: it holds its first value, judge that
            w.defs[t.src] = inits[t.src]
        w.store(add_output(w), gen.meaningful(t))
    w.drop_dead_stores()
    w.feature(f"{chains} branch chain(s), {len(targets)} branch-assigned values")
    return w.finish("Multi-way conditional kernel")
