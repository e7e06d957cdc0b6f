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
import math
import random
import re
from collections import Counter
from types import FunctionType
from typing import Any

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
    def overload(kernel: Any, _types: Any = None) -> Any:  # `wp.overload(k, {...})`: one instance of a generic kernel
        return kernel

    @staticmethod
    def constant(value: Any) -> Any:
        return value

    min, max, abs = staticmethod(min), staticmethod(max), staticmethod(abs)

    @staticmethod
    def clamp(x: Any, lo: Any, hi: Any) -> Any:
        return min(max(x, lo), hi)

    @staticmethod
    def sign(x: Any) -> Any:  # Warp's: -1 below zero, else 1 (sign(0) is 1)
        return -1.0 if x < 0 else 1.0

    @staticmethod
    def where(condition: Any, if_true: Any, if_false: Any) -> Any:
        return if_true if condition else if_false

    sqrt, sin, cos, exp, log, tanh = (staticmethod(math.sqrt), staticmethod(math.sin), staticmethod(math.cos),
                                      staticmethod(math.exp), staticmethod(math.log), staticmethod(math.tanh))

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
        if type(index) is int and self.length is not None and 0 <= index < self.length:
            key = (index,)  # `_key`'s common case inline: every read of an element comes here
        else:
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


def _below(rng: random.Random, n: int, low: int | float = 0, step: int | float = 1):
    """`low + step * rng.randrange(n)` as a function of no arguments: the library's own draws
    (`_randbelow_with_getrandbits`: `getrandbits(k)` until below n), without randrange's checks and
    calls on each of the thousands of draws a run makes; every result and later draw the same."""
    if n <= 0:
        return lambda: low + step * rng.randrange(n)  # the library's error, when drawn
    getrandbits, k = rng.getrandbits, n.bit_length()

    def draw() -> int | float:
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return low + step * r
    return draw


def _drawer(arg: ArgSpec, rng: random.Random):
    if arg.role == "index" or arg.dtype in ("int32", "int64", "uint32"):
        low = int(arg.low)
        return _below(rng, int(arg.high) + 1 - low, low)  # rng.randint(low, high)
    step = 2.0 ** -arg.grid_bits
    span = int(round((arg.high - arg.low) / step))
    return _below(rng, span + 1, arg.low, step)  # arg.low + step * rng.randint(0, span)


def _compared_inputs(spec: KernelSpec) -> dict[str, list[str]]:
    """Per output, the inputs shaped like it (in argument order): their elements are compared with its."""
    inputs = [a for a in spec.args if a.role in ("input", "index")]
    return {o.name: [a.name for a in inputs if a.shape == o.shape] for o in spec.args if o.role == "output"}


def _runnable_source(spec: KernelSpec) -> str:
    """`spec.source` with the kernel's `@wp.kernel` (options and all) and signature written `def name(a, b, out):`, where
    the signature's parameters are `spec.args`' names in order (else the source as it is): the
    decorator and the unevaluated annotations change nothing a run does, and the annotations are a
    tenth of what `compile` has to parse."""
    source = spec.source
    head = f"\ndef {spec.name}("
    at = source.find(head)
    start = source.rfind("\n@wp.kernel", 0, at) + 1  # the decorator, with its options if any
    end = source.find("):\n", at)
    if at < 0 or start <= 0 and not source.startswith("@wp.kernel") or end < 0:
        return source
    params = source[at + len(head):end].split(", ")
    names = [a.name for a in spec.args]
    if len(params) != len(names) or any(not p.startswith(n + ": ") or " = " in p for p, n in zip(params, names)):
        return source
    return f"{source[:start]}def {spec.name}({', '.join(names)}):\n{source[end + 3:]}"


def _kernel_runs(spec: KernelSpec, points: int, seed: int, compared: dict[str, list[str]] | None = None):
    """The kernel run at `points` sampled launch points: yields, per point, for each written array its
    samples there, (value, the same element of each of its `_compared_inputs`, None where unread).
    Raises Unsupported (as it runs) for a kernel outside the stand-in's reach."""
    if any(a.role in ("struct", "inout", "offsets") or a.is_records or (a.role == "scalar" and not isinstance(a.value, (int, float)))
           for a in spec.args):
        raise Unsupported("not a scalar kernel")
    wp = _Warp()
    scope: dict[str, Any] = {"wp": wp, "float": float, "int": int, "min": min, "max": max, "abs": abs}
    # Compiled from the text, not from a parsed tree: handing a tree to `compile` converts it back to
    # the compiler's own form, which costs more than parsing the text again. Annotations stay
    # unevaluated: `wp.array(dtype=float)` needs no stand-in.
    exec(compile(_runnable_source(spec), f"<{spec.name}>", "exec", flags=__future__.annotations.compiler_flag), scope)
    kernel = scope.get(spec.name)
    if not isinstance(kernel, FunctionType):  # no `def <name>` in the module
        raise Unsupported("not a scalar kernel")
    rng = random.Random(seed)
    # per point, each input's elements are drawn afresh as they are first read; the draws depend on
    # nothing but the argument and the generator, so one drawer per input serves every point
    inputs = {a.name: _Array(a.shape, draw=_drawer(a, rng)) for a in spec.args if a.role in ("input", "index")}
    written = {a.name: _Array(a.shape) for a in spec.args if a.role == "output"}
    call = [inputs.get(a.name) or written.get(a.name) or a.value for a in spec.args]
    # The arrays serve every point, their elements forgotten between points (as new arrays would be).
    compared = _compared_inputs(spec) if compared is None else compared  # the caller's, where it has them
    per_output = [(name, arr.values, [inputs[n].values for n in compared[name]]) for name, arr in written.items()]
    elements = [arr.values for arr in (*inputs.values(), *written.values())]
    launch_draws = [_below(rng, d) for d in spec.dim]  # rng.randrange(d) per launch axis
    for _ in range(points):
        wp.current = tuple([draw() for draw in launch_draws])
        for values in elements:
            values.clear()
        try:
            kernel(*call)
        except Unsupported:
            raise
        except Exception as exc:  # noqa: BLE001 - log(0), a vector's .x, ...: not this stand-in's to judge
            raise Unsupported(type(exc).__name__) from exc
        yield {name: [(value, tuple([read.get(key) for read in same])) for key, value in out.items()]
               for name, out, same in per_output}


def sampled_outputs(spec: KernelSpec, points: int = 32,
                    seed: int = 0) -> dict[str, list[tuple[float, dict[str, float | None]]]]:
    """Per written array: for each element written at a sampled launch point, (its value, the same
    element of every input array of its shape, None where unread). Raises Unsupported for a kernel
    outside the stand-in's reach."""
    compared = _compared_inputs(spec)
    outputs: dict[str, list[tuple[float, dict[str, float | None]]]] = {name: [] for name in compared}
    for at_point in _kernel_runs(spec, points, seed, compared):
        for name, samples in at_point.items():
            outputs[name].extend((value, dict(zip(compared[name], own))) for value, own in samples)
    return outputs


_LOOP = re.compile(r"\b(for|while)\b")
# A name used as a variable (not an attribute `v.x`, nor the tail of a longer word), with the `[`
# that follows it where one does: "out" and "out[" counted apart in one scan.
_NAME_USE = re.compile(r"[A-Za-z_](?<![.\w].)\w*\[?")


def _writes_per_point(spec: KernelSpec) -> dict[str, int] | None:
    """Per output, a bound on the elements one run of the kernel writes to it, from the source text:
    without loops each write is one `name[...]` in the text, as long as the array is used only
    through subscripts (never passed on or aliased, which would hide writes). None where the text
    gives no bound: a loop, a helper (`@wp.func`), an output used other than as `name[...]`."""
    source = spec.source
    if _LOOP.search(source) or "@wp.func" in source:
        return None
    uses = Counter(_NAME_USE.findall(source))
    bounds = {}
    for a in spec.args:
        if a.role != "output":
            continue
        if uses[a.name] != 1:  # the one use that is not a subscript: its parameter declaration
            return None
        bounds[a.name] = uses[a.name + "["]
    return bounds


def _out_of_reach(count: int, samples: int, more: int, share: float) -> bool:
    """Whether `count + x >= share * (samples + x)` fails for every x in [0, more] (`count` grows by
    at most one per new sample): linear in x, so both ends decide. The margin keeps the verdict safe
    from the rounding of `share * n` in the final check."""
    margin = 1e-9 * (samples + more + 1)
    return share * samples - count > margin and share * (samples + more) - (count + more) > margin


def degenerate_written(spec: KernelSpec, points: int = 32, seed: int = 0, share: float = 1.0) -> list[str]:
    """Written arrays that, at (at least `share` of) the sampled points, hold one constant or the
    same element of one input ("name: constant" / "name: copy of x"); [] when the kernel cannot be
    judged this way. A `share` below 1 also catches an output that differs only in a rare branch.

    The samples are counted as they come, not kept: per output how often each value came and how
    often it equalled each input's element. The run stops early once no output can reach `share`
    any more, whatever the points left give: the answer is then [] (as it is for a run that fails
    later), and the points left are not run.
    """
    compared = _compared_inputs(spec)
    bounds = _writes_per_point(spec)
    # outputs that may still reach the share; once one cannot, it never can again (the points left
    # only shrink what may come), so it is not checked again
    in_reach = set(compared) if bounds is not None else None
    sizes = dict.fromkeys(compared, 0)  # per output, its samples so far
    counts: dict[str, dict] = {name: {} for name in compared}  # per output, how often each value came
    copies = {name: [0] * len(inputs) for name, inputs in compared.items()}  # per output, per compared input
    left = points
    try:
        for at_point in _kernel_runs(spec, points, seed, compared):
            left -= 1
            for name, samples in at_point.items():
                sizes[name] += len(samples)
                count, copied = counts[name], copies[name]
                for v, own in samples:
                    count[v] = count.get(v, 0) + 1  # as Counter(values) counts
                    for i, x in enumerate(own):
                        if x is not None and v == x:
                            copied[i] += 1
            if in_reach and left:
                for name in list(in_reach):
                    n, more = sizes[name], left * bounds[name]
                    if n and _out_of_reach(max(counts[name].values()), n, more, share) \
                            and all(_out_of_reach(c, n, more, share) for c in copies[name]):
                        in_reach.discard(name)
                if not in_reach:
                    return []
    except Unsupported:
        return []
    found = []
    for name, n in sizes.items():
        if n < 2:
            continue
        need = share * n
        if max(counts[name].values()) >= need:  # the count of the most frequent value
            found.append(f"{name}: constant")
            continue
        for other, c in zip(compared[name], copies[name]):
            if c >= need:
                found.append(f"{name}: copy of {other}")
                break
    return found
