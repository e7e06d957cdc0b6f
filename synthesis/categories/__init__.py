"""The kernel categories and `generate(category, seed)`, a pure function of its arguments."""
from __future__ import annotations

import dataclasses
import hashlib
import random

from synthesis.categories import (
    arithmetic,
    atomic,
    combined,
    control_flow,
    math,
    matrix,
    meshes,
    multi_conditional,
    neighbors,
    nested_loop,
    particles,
    scalar_param,
    stencil,
    tiled,
    transform,
    vector,
)
from synthesis.naming import plain_module_names, plain_names
from synthesis.realism import find_patterns
from synthesis.spec import KernelSpec
from synthesis.style import consistent_spellings
from synthesis.warp_hazards import global_first_read_in_branch

CATEGORIES = {
    "arithmetic": (arithmetic, "arith"),
    "math": (math, "math"),
    "vector": (vector, "vec"),
    "matrix": (matrix, "mat"),
    "control_flow": (control_flow, "ctrl"),
    "atomic": (atomic, "atom"),
    "nested_loop": (nested_loop, "nest"),
    "multi_conditional": (multi_conditional, "cond"),
    "combined": (combined, "comb"),
    "scalar_param": (scalar_param, "scal"),
    "stencil": (stencil, "sten"),
    "transform": (transform, "xform"),
    "particles": (particles, "part"),
    "tiled": (tiled, "tile"),
    "neighbors": (neighbors, "nbr"),
    "meshes": (meshes, "mesh"),
}
CATEGORY_NAMES = tuple(CATEGORIES)
MAX_REDRAWS = 8


class DrawRandom(random.Random):
    """`random.Random` with `choice` and `randint` written out: the generators call them over a hundred
    times per kernel, and the library's versions go through two or three Python calls each. Each
    makes exactly the library's draws (the same `getrandbits` calls: `_randbelow_with_getrandbits`,
    the `_randbelow` of `random.Random`), so every result, and every later draw, is the same."""

    def choice(self, seq):
        n = len(seq)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        getrandbits = self.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return seq[r]

    def randint(self, a: int, b: int) -> int:
        # randrange(a, b + 1) with integer bounds: a + _randbelow(b + 1 - a)
        n = b + 1 - a
        if type(a) is not int or type(b) is not int or n <= 0:
            return super().randint(a, b)  # the library's errors and conversions
        getrandbits = self.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return a + r


def kernel_name(category: str, seed: int) -> str:
    """Deterministic and, through the hash of (category, seed), unique for practical purposes."""
    digest = hashlib.sha256(f"{category}:{seed}".encode()).hexdigest()[:10]
    return f"{CATEGORIES[category][1]}_{digest}"


def generate(category: str, seed: int) -> KernelSpec:
    if category not in CATEGORIES:
        raise ValueError(f"unknown category {category!r}; choose from {', '.join(CATEGORY_NAMES)}")
    module, _ = CATEGORIES[category]
    name = kernel_name(category, seed)
    # The rng is seeded from both arguments, so no category's output depends on another's. A draw
    # that Warp would miscompile (synthesis.warp_hazards), or that holds code no person writes
    # (synthesis.realism's source patterns, e.g. transpose(transpose(m)) through a local), is redrawn
    # from a derived seed; a draw with only the latter is kept if every redraw has it too.
    fallback = None
    for redraw in range(MAX_REDRAWS + 1):
        rng = DrawRandom(f"{category}:{seed}" + (f":redraw{redraw}" if redraw else ""))
        spec = module.generate(rng, name, seed)
        spec = dataclasses.replace(spec, source=consistent_spellings(plain_names(plain_module_names(spec.source, name))))
        if global_first_read_in_branch(spec.source) is not None:
            continue
        if not find_patterns(spec.source):
            return spec
        fallback = fallback or spec
    if fallback is None:
        raise RuntimeError(f"{category} seed {seed}: every draw hits a Warp miscompile pattern")
    return fallback
