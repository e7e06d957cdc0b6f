"""Where a per-element kernel reads and writes (`Site`), and how its core computation is packaged (`Core`).

The vector and matrix categories write one named computation per kernel (their FORMS tables). Around
it, real kernels differ in ways that do not change what is computed, and `Site` and `Core` draw them:

* the launch (ACCESSES): one thread per element; threads that return early (past a count, or for an
  element a mask or flag bit marks inactive: `common.early_return`); an
  active set, where each thread updates the element an index array names (`i = active[tid]`, as
  particle and contact kernels do); or a 2-D grid of elements (`i, j = wp.tid()`, a field per pixel
  or cell), for the computations that make sense on a grid;
* the packaging: the computation written in the kernel's body, or as a `@wp.func` the kernel calls
  (typed vector/matrix parameters, a typed result, several results as a tuple), named for what it does.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, NamedTuple

from synthesis.categories.common import early_return
from synthesis.categories.control_flow import _temp
from synthesis.categories.rich import RichKernelWriter
from synthesis.dtypes import dtype as lookup_dtype
from synthesis.exprgen import IDENTIFIER, Expr

ACCESSES = ("own", "guarded", "active", "grid")
PER_ELEMENT = ("own", "guarded", "active")  # the launches of a computation that makes no sense on a grid
GRID_SHAPES = ((16, 16), (16, 32), (32, 32), (24, 40), (64, 32))
LAUNCH_SIZES = (64, 100, 128, 256, 500, 1000, 1024)
ACTIVE_HINTS = ("active", "ids", "indices", "particle_ids")
SPLIT_VECTORS_SHARE = 0.2  # kernels whose vector inputs come as one float array per component
SPLIT_OUTPUTS_SHARE = 0.7  # of those, the vector results written the same way


def launch(rng, access: str) -> tuple[int, ...]:
    """The launch shape for `access`: a grid for "grid", else one of the usual 1-D sizes."""
    return rng.choice(GRID_SHAPES) if access == "grid" else (rng.choice(LAUNCH_SIZES),)


def annotation(dtype: str) -> str:
    """A parameter's or result's annotation in a `@wp.func`: the type registry's first spelling
    (`float`, `int`, `wp.vec3`, ...)."""
    return lookup_dtype(dtype).annotations[0]


def free_hints(w: RichKernelWriter, hints: tuple[str, ...]) -> tuple[str, ...]:
    """The hints no local takes (Warp does not let a parameter and a local share a symbol)."""
    assigned = {name.strip() for line in w.lines if " = " in line for name in line.split(" = ")[0].split(",")}
    return tuple(h for h in hints if h not in assigned) or tuple(f"{h}_out" for h in hints)


class Site:
    """Where the kernel's thread reads its inputs and writes its outputs (see ACCESSES).
    `literal_knobs=False` makes every coefficient a kernel parameter (tests read their values)."""

    def __init__(self, w: RichKernelWriter, access: str, literal_knobs: bool = True):
        self.w = w
        self.access = access
        self.literal_knobs = literal_knobs
        self.shape: tuple[int, ...] | None = None  # the arrays' shape, where it is not the launch's
        self.index: str | None = None  # the element's index, where it is not the thread's own
        if access == "guarded":
            early_return(w)
        elif access == "active":
            self.shape = (w.rng.choice([w.dim[0] + w.dim[0] // 2, 2 * w.dim[0]]),)
            ids = w.add_array(w.rng.choice(ACTIVE_HINTS), "int32", "index", index_high=self.shape[0] - 1)
            self.index = _temp(w, "i")
            w.emit(f"{self.index} = {ids}[{w.tid_names[0]}]")
            w.head = len(w.lines)  # the elements' loads come after the index they read
            w.feature("active set through an index array")
        elif access == "grid":
            w.feature("2-D grid of elements")
        # data kept as one float array per component (structure of arrays), as it often arrives
        self.split_vectors = w.rng.random() < SPLIT_VECTORS_SHARE

    def input(self, hints: tuple[str, ...], dtype: str, low: float = -1.0, high: float = 1.0,
              grid_bits: int = 10) -> str:
        """A new input array; the local holding the thread's element of it."""
        w = self.w
        if self.split_vectors and dtype in ("vec2", "vec3"):
            return self._components(hints, dtype, low, high, grid_bits)
        name = w.add_array(w.rng.choice(free_hints(w, hints)), dtype, "input", shape=self.shape,
                           low=low, high=high, grid_bits=grid_bits)
        if self.index is None:
            return w.load(name).src
        local = w._unique_local(f"{name}_i")
        w.load_lines.append(f"    {local} = {name}[{self.index}]")
        w.unused.remove(name)
        return local

    def _components(self, hints: tuple[str, ...], dtype: str, low: float, high: float, grid_bits: int) -> str:
        """A vector input stored as one float array per component (`pos_x`, `pos_y`, `pos_z`); the
        local holding the thread's vector, `pos_v = wp.vec3(pos_x[tid], pos_y[tid], pos_z[tid])`."""
        w = self.w
        base = w.rng.choice(free_hints(w, hints))
        names = [w.add_array(f"{base}_{axis}", "float32", "input", shape=self.shape, low=low, high=high,
                             grid_bits=grid_bits) for axis in "xyz"[:int(dtype[-1])]]
        for name in names:
            w.unused.remove(name)
        index = self.index or w.own_index()
        local = w._unique_local(f"{base}_v" if self.index is None else f"{base}_i")
        w.load_lines.append(f"    {local} = wp.{dtype}({', '.join(f'{n}[{index}]' for n in names)})")
        w.feature("vectors stored as one array per component")
        return local

    def inout(self, hints: tuple[str, ...], dtype: str, low: float = -1.0, high: float = 1.0) -> tuple[str, str]:
        """A new array read and then rewritten (updated in place): (its name, the local holding the
        thread's element)."""
        w = self.w
        name = w.add_array(w.rng.choice(free_hints(w, hints)), dtype, "inout", shape=self.shape, low=low, high=high)
        w.unused.remove(name)
        local = w._unique_local(f"{name}_v" if self.index is None else f"{name}_i")
        w.load_lines.append(f"    {local} = {name}[{self.index or w.own_index()}]")
        return name, local

    def store_to(self, name: str, value: str, bound: float) -> None:
        """`name[element] = value` into an array made earlier (an in-out one)."""
        self.w.store(name, Expr(value, self.w.arg(name).dtype, bound, None), index=self.index)

    def store(self, hints: tuple[str, ...], dtype: str, value: str, bound: float, state: bool = False,
              bounded: bool = False) -> str:
        """`out[element] = value` into a new output array; returns the array's name. Where the inputs
        come one array per component, a vector result mostly leaves that way too (`_store_components`).
        `state`: the value is an iteration's result that replaces the old one (an eigenvector, an
        eigenvalue estimate), which the writer's output updates never add to or blend with.
        `bounded`: a value held within a range the writer cannot read off its expression (a velocity
        whose length is capped), which output updates only smooth toward, never sum."""
        w = self.w
        if self.split_vectors and dtype in ("vec2", "vec3") and w.rng.random() < SPLIT_OUTPUTS_SHARE:
            return self._store_components(hints, dtype, value, bound, state, bounded)
        name = w.add_array(w.rng.choice(free_hints(w, hints)), dtype, "output", shape=self.shape)
        w.store(name, Expr(value, dtype, bound, None), index=self.index, state=state, bounded=bounded)
        return name

    def _store_components(self, hints: tuple[str, ...], dtype: str, value: str, bound: float,
                          state: bool = False, bounded: bool = False) -> str:
        """A vector result kept in a local and written one float array per component
        (`n_x[tid] = n[0]`, ...); returns the arrays' common stem."""
        w = self.w
        base = w.rng.choice(free_hints(w, hints))
        local = value if IDENTIFIER.fullmatch(value) else self.local(base, value)
        for k, axis in enumerate("xyz"[:int(dtype[-1])]):
            name = w.add_array(f"{base}_{axis}", "float32", "output", shape=self.shape)
            w.store(name, Expr(f"{local}[{k}]", "float32", bound, None), index=self.index, state=state,
                    bounded=bounded)
        w.feature("results stored as one array per component")
        return base

    def knob(self, hints: tuple[str, ...], choices: tuple[float, ...], literal: bool = True) -> str:
        """A coefficient, supplied the ways kernels supply one: a kernel parameter (mostly), a module
        constant, one value per element (a material property: `restitution[i]`, between the smallest
        and largest choice), or (`literal`) a literal."""
        w = self.w
        value = w.rng.choice(choices)
        if not literal or not self.literal_knobs:
            return w.add_scalar(w.rng.choice(hints), "float32", value).src
        how = w.rng.random()
        if how < 0.45:
            return w.add_scalar(w.rng.choice(hints), "float32", value).src
        if how < 0.65:
            w.feature("coefficient as a module constant")
            return w.add_constant(w.rng.choice(hints).upper(), float(value)).src
        if how < 0.8 and min(choices) > 0:
            w.feature("coefficient per element")
            return self.input(hints, "float32", float(min(choices)), float(max(choices)), grid_bits=4)
        return repr(float(value))

    def local_name(self, hint: str) -> str:
        """A local's name in the kernel's body: `hint`, or a longer one where a parameter has it."""
        return _temp(self.w, hint)

    def local(self, hint: str, value: str) -> str:
        """`hint = value` in the kernel's body (a name no parameter takes)."""
        name = self.local_name(hint)
        self.w.emit(f"{name} = {value}")
        return name


class Core:
    """A form's core computation: written into the kernel's body, or (`as_func`) as a `@wp.func`
    named `<kind>` that the kernel calls. A form writes it the same way either way:
    `param` names an input (the caller's value inline, the parameter in a function), `let` and `emit`
    write statements, `result` gives what the kernel uses (the expression inline, the call otherwise)."""

    def __init__(self, site: Site, kind: str, as_func: bool):
        self.site = site
        self.w = site.w
        self.kind = kind
        self.as_func = as_func
        self.params: list[tuple[str, str]] = []  # (name, dtype)
        self.values: list[str] = []  # what the kernel passes for each parameter
        self.body: list[str] = []
        self.indent = 1

    def param(self, name: str, dtype: str, value: str) -> str:
        if not self.as_func:
            return value
        self.params.append((name, dtype))
        self.values.append(value)
        return name

    def let(self, hint: str, value: str) -> str:
        if not self.as_func:
            return self.site.local(hint, value)
        self.emit(f"{hint} = {value}")
        return hint

    def emit(self, line: str) -> None:
        if self.as_func:
            self.body.append("    " * self.indent + line)
        else:
            self.w.emit(line)

    @contextmanager
    def block(self, header: str):
        if not self.as_func:
            with self.w.block(header):
                yield
            return
        self.emit(header)
        self.indent += 1
        try:
            yield
        finally:
            self.indent -= 1

    def result(self, value: str, dtype: str | tuple[str, ...]) -> str:
        """What the kernel uses: `value` itself inline; else `value` is returned (a tuple for several
        dtypes) and the call is the result."""
        if not self.as_func:
            return value
        name = f"{self.kind}_{self.w.name.split('_')[-1]}"
        params = ", ".join(f"{p}: {annotation(t)}" for p, t in self.params)
        returns = annotation(dtype) if isinstance(dtype, str) else \
            f"tuple[{', '.join(annotation(t) for t in dtype)}]"
        lines = "\n".join(self.body + [f"    return {value}"])
        self.w.add_helper(f"@wp.func\ndef {name}({params}) -> {returns}:\n{lines}", name)
        self.w.feature(f"@wp.func helper ({self.kind.replace('_', ' ')})")
        return f"{name}({', '.join(self.values)})"


class Form(NamedTuple):
    """A FORMS table entry (vector, matrix): the computation and the launches it is written for."""

    build: Callable[[Site, bool], None]  # (site, as_func)
    accesses: tuple[str, ...]  # of ACCESSES
