"""Run a generated kernel's body in Python, thread by thread, over numpy arrays standing in for
Warp's: what the per-form tests check a form's results with. Vectors and matrices are numpy arrays
shaped as the type registry says (`vec3` (3,), `mat33` (3, 3)), so `@`, `m[i, j]` and `v[0]` mean
what they mean in Warp; `Vec` adds the `.x .. .w` component names."""
from __future__ import annotations

import __future__
import math
import re
import types

import numpy as np

from synthesis.dtypes import dtype as lookup_dtype
from synthesis.sampled_run import _runnable_source


def _component(k: int) -> property:
    def set_component(self, value):
        self[..., k] = value
    return property(lambda self: self[..., k], set_component)


class Vec(np.ndarray):
    """A numpy vector with Warp's component names (read and assigned: `v.y = 0.0`)."""

    x, y, z, w = (_component(k) for k in range(4))


class Elements(Vec):
    """An array whose vector and matrix elements are read as copies: Warp's `v = a[i]` is a value, so
    `v[k] = ...` afterwards changes the local, never the array (numpy would hand out a view)."""

    def __getitem__(self, index):
        item = super().__getitem__(index)
        return item.copy().view(Vec) if isinstance(item, np.ndarray) and item.ndim else item

    def __setitem__(self, index, value):
        # numpy assigns into a subclass through its __getitem__, which here returns a copy
        np.asarray(self)[index] = value


def _by_value(f):
    """A `@wp.func`: its vector and matrix arguments are copies, as Warp passes them by value (the
    function may assign to their components); arrays are the caller's."""
    return lambda *args: f(*(a.copy().view(Vec) if isinstance(a, np.ndarray) and a.ndim and not isinstance(a, Elements)
                             else a for a in args))


def _vec(*values) -> Vec:
    return np.array([float(v) for v in values]).view(Vec)


def _vector_ctor(n: int):
    def make(*values):
        if not values:  # `wp.vec3()`: zeros
            values = (0.0,) * n
        if len(values) == 1 and np.ndim(values[0]) == 0:
            values = values * n
        return _vec(*values)
    return make


def _matrix_ctor(n: int):
    return lambda *values: np.array([float(v) for v in values] or [0.0] * (n * n)).reshape(n, n)


def _quat_to_matrix(q) -> np.ndarray:
    """Warp's quat_to_matrix of a unit quaternion (x, y, z, w): the rotation it stands for."""
    x, y, z, w = (float(c) for c in q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def _skew(v) -> np.ndarray:
    return np.array([[0.0, -v[2], v[1]], [v[2], 0.0, -v[0]], [-v[1], v[0], 0.0]])


def _wp() -> types.SimpleNamespace:
    def atomic_add(array, index, value):
        array[index] += value

    def atomic_max(array, index, value):  # returns the old value, as Warp's atomics do
        old = array[index]
        array[index] = max(old, value)
        return old

    def atomic_min(array, index, value):
        old = array[index]
        array[index] = min(old, value)
        return old

    def normalize(v):
        n = float(np.linalg.norm(v))
        return v / n if n > 0.0 else v * 0.0

    def lerp(a, b, t):
        return a * (1.0 - t) + b * t

    def mul(a, b):
        return a @ b if np.ndim(a) and np.ndim(b) else a * b

    def smoothstep(edge0, edge1, x):  # Hermite between the edges, as Warp defines it
        t = min(max((x - edge0) / (edge1 - edge0), 0.0), 1.0)
        return t * t * (3.0 - 2.0 * t)

    namespace = types.SimpleNamespace(
        tid=None, min=min, max=max, abs=abs, clamp=lambda x, low, high: min(max(x, low), high), sqrt=math.sqrt,
        exp=math.exp, floor=math.floor, log=math.log, sin=math.sin, cos=math.cos, tanh=math.tanh, cosh=math.cosh, pow=math.pow,
        atan2=math.atan2, degrees=math.degrees, tan=math.tan, atan=math.atan, pi=math.pi, log2=math.log2, log10=math.log10,
        cbrt=lambda x: math.copysign(abs(x) ** (1.0 / 3.0), x),
        dot=lambda a, b: float(np.dot(a, b)), length=lambda v: float(np.linalg.norm(v)),
        length_sq=lambda v: float(np.dot(v, v)), normalize=normalize, cross=lambda a, b: np.cross(a, b).view(Vec),
        cw_mul=lambda a, b: a * b, lerp=lerp, smoothstep=smoothstep, mul=mul, outer=np.outer, transpose=np.transpose,
        inverse=np.linalg.inv, determinant=lambda m: float(np.linalg.det(m)), trace=lambda m: float(np.trace(m)),
        ddot=lambda a, b: float(np.sum(a * b)), identity=lambda n, dtype=None: np.eye(n),
        matrix_from_rows=lambda *rows: np.array(rows), matrix_from_cols=lambda *cols: np.array(cols).T,
        where=lambda c, a, b: a if c else b, atomic_add=atomic_add, atomic_max=atomic_max,
        atomic_min=atomic_min, func=_by_value, quat_to_matrix=_quat_to_matrix, skew=_skew, constant=lambda v: v, float32=float, float64=float)
    for n in (2, 3, 4):
        setattr(namespace, f"vec{n}", _vector_ctor(n))
        setattr(namespace, f"mat{n}{n}", _matrix_ctor(n))
    return namespace


def _element_shape(dtype: str) -> tuple[int, ...]:
    return tuple(lookup_dtype(dtype).shape)


def _as_value(arg):
    """A scalar parameter's value; a by-value vector or matrix as numpy (the registry's shape)."""
    if not isinstance(arg.value, tuple):
        return arg.value
    value = np.array(arg.value, dtype=np.float64).reshape(_element_shape(arg.dtype))
    return value.view(Vec) if value.ndim == 1 else value


def draw_inputs(spec, seed: int) -> dict[str, np.ndarray]:
    """Every input array on its grid (`low..high` in steps of 2**-grid_bits), vectors and matrices
    with trailing axes of their component shape."""
    rng = np.random.default_rng(seed)
    arrays = {}
    for a in spec.args:
        if a.role not in ("input", "inout", "index"):
            continue
        shape = tuple(a.shape) + _element_shape(a.dtype)  # the type registry's component shape
        step = 2.0 ** -a.grid_bits
        ints = rng.integers(round(a.low / step), round(a.high / step) + 1, size=shape)
        arrays[a.name] = ints.astype(np.int64) if a.dtype == "int32" else (ints * step).view(Vec)
    return arrays


def run(spec, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The kernel's body run once per thread; returns the written arrays (inout ones included)."""
    wp = _wp()
    names = {"wp": wp, "float": float, "int": int, "min": min, "max": max, "abs": abs}
    exec(compile(_runnable_source(spec), spec.name, "exec", flags=__future__.annotations.compiler_flag), names)
    arrays = {k: v.copy() for k, v in inputs.items()}
    written = []
    for a in spec.args:
        if a.role == "output":
            arrays[a.name] = np.zeros(tuple(a.shape) + _element_shape(a.dtype),
                                      dtype=np.int64 if a.dtype == "int32" else np.float64)
        if a.role in ("output", "inout"):
            written.append(a.name)
    elements = {k: v.view(Elements) for k, v in arrays.items()}  # arrays are passed by reference
    args = [_as_value(a) if a.role == "scalar" else elements[a.name] for a in spec.args]
    for point in np.ndindex(*spec.dim):
        wp.tid = (lambda p=point: p[0] if len(p) == 1 else p)
        names[spec.name](*args)
    return {n: arrays[n] for n in written}


def stored(spec, inputs: dict[str, np.ndarray], got: dict[str, np.ndarray], name: str) -> np.ndarray:
    """The values the kernel computed for array `name`: what it wrote, or, for an output it updates
    in place (KernelWriter.update_outputs), the value the update took in: `a[i] += v` added v to the
    entry values; a blend at rate r (`wp.lerp(a[i], v, r)`) left (1 - r) * entry + r * v."""
    line = next((l.strip() for l in spec.source.splitlines() if re.match(rf"\s*{name}\[[^\]]*\] (\+)?=", l)), "")
    if line.startswith(f"{name}[") and " += " in line:
        return got[name] - inputs[name]
    blend = re.search(rf"wp\.lerp\({name}\[[^\]]*\], .+, (\w+)\)$|^\S+ = \(1\.0 - (\w+)\) \* {name}\[", line)
    if blend is None:
        return got[name]
    rate = next(a.value for a in spec.args if a.name == (blend.group(1) or blend.group(2)))
    return (got[name] - (1.0 - rate) * inputs[name]) / rate


class Shaped(list):
    """A list with the `.shape` a kernel reads its extent from (`a.shape[0] - 1`), for the tests that
    run a kernel's body over plain lists."""

    @property
    def shape(self) -> tuple[int]:
        return (len(self),)
