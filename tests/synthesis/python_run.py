"""Run a generated kernel's body in Python, thread by thread, over numpy arrays standing in for
Warp's: what the per-form tests check a form's results with."""
from __future__ import annotations

import math
import types

import numpy as np

from synthesis.sampled_run import _runnable_source


def _wp() -> types.SimpleNamespace:
    def atomic_add(array, index, value):
        array[index] += value

    def atomic_max(array, index, value):
        array[index] = max(array[index], value)

    def normalize(v):
        n = float(np.linalg.norm(v))
        return v / n if n > 0.0 else v * 0.0

    return types.SimpleNamespace(
        tid=None, min=min, max=max, abs=abs, clamp=lambda x, lo, hi: min(max(x, lo), hi), sqrt=math.sqrt,
        exp=math.exp, log=math.log, sin=math.sin, cos=math.cos, tanh=math.tanh, cosh=math.cosh,
        dot=lambda a, b: float(np.dot(a, b)), length=lambda v: float(np.linalg.norm(v)), normalize=normalize,
        where=lambda c, a, b: a if c else b, atomic_add=atomic_add, atomic_max=atomic_max,
        func=lambda f: f, constant=lambda v: v)


def draw_inputs(spec, seed: int) -> dict[str, np.ndarray]:
    """Every input array on its grid (`low..high` in steps of 2**-grid_bits), vectors with a last axis."""
    rng = np.random.default_rng(seed)
    arrays = {}
    for a in spec.args:
        if a.role not in ("input", "inout", "index"):
            continue
        shape = tuple(a.shape) + ((a.width,) if a.width > 1 else ())  # the type registry's component count
        step = 2.0 ** -a.grid_bits
        ints = rng.integers(round(a.low / step), round(a.high / step) + 1, size=shape)
        arrays[a.name] = ints.astype(np.int64) if a.dtype == "int32" else ints * step
    return arrays


def run(spec, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The kernel's body run once per thread; returns the written arrays (inout ones included)."""
    wp = _wp()
    names = {"wp": wp, "float": float, "int": int, "min": min, "max": max, "abs": abs}
    exec(compile(_runnable_source(spec), spec.name, "exec"), names)
    arrays = {k: v.copy() for k, v in inputs.items()}
    written = []
    for a in spec.args:
        if a.role == "output":
            arrays[a.name] = np.zeros(a.shape, dtype=np.int64 if a.dtype == "int32" else np.float64)
        if a.role in ("output", "inout"):
            written.append(a.name)
    args = [a.value if a.role == "scalar" else arrays[a.name] for a in spec.args]
    for point in np.ndindex(*spec.dim):
        wp.tid = (lambda p=point: p[0] if len(p) == 1 else p)
        names[spec.name](*args)
    return {n: arrays[n] for n in written}


