"""Run a generated scalar kernel as plain Python at a few launch points, to judge its outputs.

realism's point evaluator follows expressions but not branches: a value assigned in an if/elif
chain is unknown to it. For kernels of scalar float code (multi-way conditionals) the kernel's own
body is also valid Python, so it is simply run, thread by thread, at sampled launch points on
sampled inputs, with a stand-in for the few `wp.` builtins such code calls. The result is a
heuristic for the generator (is every output a constant, or a copy of one input element?), not an
equivalence: Python computes in float64 and Warp in float32.

Only the generator's own code is run here, never a user's file.
"""
from __future__ import annotations

import __future__
import ast
import math
import random
from collections import Counter
from typing import Any

from synthesis.normalize import parse_module
from synthesis.spec import ArgSpec, KernelSpec


class Unsupported(Exception):
    """The kernel calls something the stand-in does not model: no judgement."""


class _TypeStub:
    """`wp.array(dtype=float)`, `wp.array[float]`, `wp.float32`...: annotations only."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return args[0] if args else 0.0

    def __getitem__(self, item: Any) -> "_TypeStub":
        return self


class _Warp:
    """The `wp` a scalar kernel sees: tid() answers the thread being run."""

    def __init__(self) -> None:
        self.current: tuple[int, ...] = (0,)
        stub = _TypeStub()
        for name in ("array", "array2d", "array3d", "array4d"):
            setattr(self, name, stub)
        self.float32 = self.float64 = float
        self.int32 = self.int64 = int
        self.pi = math.pi

    def tid(self) -> Any:
        return self.current[0] if len(self.current) == 1 else self.current

    @staticmethod
    def kernel(fn=None, **_options: Any) -> Any:
        return fn if fn is not None else (lambda f: f)

    func = kernel

    @staticmethod
    def constant(value: Any) -> Any:
        return value

    min, max, abs = staticmethod(min), staticmethod(max), staticmethod(abs)

    @staticmethod
    def clamp(x: Any, lo: Any, hi: Any) -> Any:
        return min(max(x, lo), hi)

    sqrt, sin, cos, exp, log = (staticmethod(math.sqrt), staticmethod(math.sin), staticmethod(math.cos),
                                staticmethod(math.exp), staticmethod(math.log))

    def __getattr__(self, name: str) -> Any:
        raise Unsupported(f"wp.{name}")


class _Array:
    """An input or output array indexed like Warp's (`a[i]`, `a[i, j]`), bounds checked."""

    def __init__(self, shape: tuple[int, ...], values: dict[tuple[int, ...], float] | None = None,
                 draw=None) -> None:
        self.shape, self.values, self.draw = shape, values if values is not None else {}, draw
        self.length = shape[0] if len(shape) == 1 else None  # a 1-D array's bound, for `a[tid]`

    def _key(self, index: Any) -> tuple[int, ...]:
        if type(index) is int:  # the common case, `a[tid]`, without building a tuple of conversions
            if self.length is None or not 0 <= index < self.length:
                raise Unsupported("index out of range")
            return (index,)
        key = tuple(map(int, index if isinstance(index, tuple) else (index,)))
        if len(key) != len(self.shape) or any(not 0 <= k < n for k, n in zip(key, self.shape)):
            raise Unsupported("index out of range")
        return key

    def __getitem__(self, index: Any) -> float:
        key = self._key(index)
        value = self.values.get(key, _UNSET)
        if value is _UNSET:
            if self.draw is None:
                return 0.0
            value = self.values[key] = self.draw()
        return value

    def __setitem__(self, index: Any, value: Any) -> None:
        self.values[self._key(index)] = value


_UNSET = object()


def _drawer(arg: ArgSpec, rng: random.Random):
    if arg.role == "index" or arg.dtype in ("int32", "int64", "uint32"):
        return lambda: rng.randint(int(arg.low), int(arg.high))
    step = 2.0 ** -arg.grid_bits
    span = int(round((arg.high - arg.low) / step))
    return lambda: arg.low + step * rng.randrange(span + 1)  # rng.randint(0, span), one call less


def sampled_outputs(spec: KernelSpec, points: int = 32,
                    seed: int = 0) -> dict[str, list[tuple[float, dict[str, float | None]]]]:
    """Per written array: for each element written at a sampled launch point, (its value, the same
    element of every input array of its shape, None where unread). Raises Unsupported for a kernel
    outside the stand-in's reach."""
    tree = parse_module(spec.source)  # shared: the kernel kept is parsed next by the realism check
    kernels = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == spec.name]
    if not kernels or any(a.role in ("struct", "inout") or (a.role == "scalar" and not isinstance(a.value, (int, float)))
                          for a in spec.args):
        raise Unsupported("not a scalar kernel")
    wp = _Warp()
    scope: dict[str, Any] = {"wp": wp, "float": float, "int": int, "min": min, "max": max, "abs": abs}
    # annotations stay unevaluated: `wp.array(dtype=float)` needs no stand-in
    exec(compile(tree, f"<{spec.name}>", "exec", flags=__future__.annotations.compiler_flag), scope)
    kernel = scope[spec.name]
    rng = random.Random(seed)
    outputs: dict[str, list[tuple[float, list[float]]]] = {a.name: [] for a in spec.args if a.role == "output"}
    # per point, each input's elements are drawn afresh as they are first read; the draws depend on
    # nothing but the argument and the generator, so one drawer per input serves every point
    drawers = [(a, _drawer(a, rng)) for a in spec.args if a.role in ("input", "index")]
    outputs_args = [a for a in spec.args if a.role == "output"]
    # per output, the inputs shaped like it (in argument order): their elements are compared with its
    same_shape = {o.name: [a.name for a, _ in drawers if a.shape == o.shape] for o in outputs_args}
    for _ in range(points):
        point = tuple(rng.randrange(d) for d in spec.dim)
        wp.current = point
        inputs = {a.name: _Array(a.shape, draw=draw) for a, draw in drawers}
        written = {a.name: _Array(a.shape) for a in outputs_args}
        call = [inputs.get(a.name) or written.get(a.name) or a.value for a in spec.args]
        try:
            kernel(*call)
        except Unsupported:
            raise
        except Exception as exc:  # noqa: BLE001 - log(0), a vector's .x, ...: not this stand-in's to judge
            raise Unsupported(type(exc).__name__) from exc
        for name, arr in written.items():
            for key, value in arr.values.items():
                # the same element of each input shaped like this output, where the kernel read it
                own = {n: inputs[n].values.get(key) for n in same_shape[name]}
                outputs[name].append((value, own))
    return outputs


def degenerate_written(spec: KernelSpec, points: int = 32, seed: int = 0, share: float = 1.0) -> list[str]:
    """Written arrays that, at (at least `share` of) the sampled points, hold one constant or the
    same element of one input ("name: constant" / "name: copy of x"); [] when the kernel cannot be
    judged this way. A `share` below 1 also catches an output that differs only in a rare branch."""
    try:
        outputs = sampled_outputs(spec, points, seed)
    except Unsupported:
        return []
    found = []
    for name, samples in outputs.items():
        if len(samples) < 2:
            continue
        need = share * len(samples)
        values = [v for v, _ in samples]
        if max(Counter(values).values()) >= need:  # the count of the most frequent value
            found.append(f"{name}: constant")
            continue
        for other in samples[0][1]:
            if sum(1 for v, own in samples if own.get(other) is not None and v == own[other]) >= need:
                found.append(f"{name}: copy of {other}")
                break
    return found
