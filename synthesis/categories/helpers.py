"""`@wp.func` helpers with a purpose, one table entry each (as Warp registers its builtins): a name
that says what the helper computes, typed parameters (the value first, then its knobs), the body, and
a bound on the result. Categories call them on named values; the knobs are passed as kernel
parameters or literals. Each is written into the kernel's module once, named for what it does (`huber`;
written with the kernel's suffix while the kernel is drawn, which `naming.plain_module_names` drops).
"""
from __future__ import annotations

from typing import Callable, NamedTuple

from synthesis.exprgen import Expr, KernelWriter, fmt_float


class Helper(NamedTuple):
    """A `@wp.func` with a purpose: its parameters (the values first, then the scalar knobs, with the
    choices a kernel passes for them), its body, and a bound on |result| from a bound on the values'
    magnitude and the knobs drawn."""

    params: tuple[str, ...]
    knobs: tuple[tuple[str, tuple[float, ...]], ...]  # (name, choices) of each parameter after the value
    body: tuple[str, ...]
    bound: Callable[[float, tuple[float, ...]], float]  # (|value| bound, knob values) -> |result| bound


HELPERS: dict[str, Helper] = {
    "huber": Helper(("r", "delta"), (("delta", (0.5, 1.0, 1.5)),),
                    ("a = wp.abs(r)", "if a <= delta:", "    return 0.5 * r * r", "return delta * (a - 0.5 * delta)"),
                    lambda m, k: 0.5 * m * m + k[0] * m),
    "pseudo_huber": Helper(("r", "delta"), (("delta", (0.5, 1.0, 2.0)),),
                           ("t = r / delta", "return delta * delta * (wp.sqrt(1.0 + t * t) - 1.0)"),
                           lambda m, k: k[0] * m + 1.0),
    "log_cosh": Helper(("r",), (), ("return wp.log(wp.cosh(r))",), lambda m, k: m + 1.0),
    "cauchy": Helper(("r", "c"), (("c", (0.5, 1.0, 2.0)),),
                     ("t = r / c", "return 0.5 * c * c * wp.log(1.0 + t * t)"), lambda m, k: k[0] * k[0] * (m / k[0] + 1.0)),
    "squared_error": Helper(("r",), (), ("return 0.5 * r * r",), lambda m, k: 0.5 * m * m),
    "soft_clip": Helper(("x", "limit"), (("limit", (0.5, 1.0, 2.0)),),
                        ("return limit * wp.tanh(x / limit)",), lambda m, k: k[0]),
    "sigmoid": Helper(("x",), (), ("return 1.0 / (1.0 + wp.exp(-x))",), lambda m, k: 1.0),
    "blend": Helper(("a", "b", "t"), (), ("return a + t * (b - a)",), lambda m, k: 2.0 * m),
    "softplus": Helper(("x",), (), ("return wp.log(1.0 + wp.exp(x))",), lambda m, k: m + 1.0),
    "gaussian": Helper(("x", "sigma"), (("sigma", (0.5, 1.0, 2.0)),),
                       ("return wp.exp(-x * x / (2.0 * sigma * sigma))",), lambda m, k: 1.0),
    "smoothstep": Helper(("x", "edge0", "edge1"), (("edge0", (-1.0, -0.5, 0.0)), ("edge1", (0.5, 1.0, 1.5))),
                         ("t = wp.clamp((x - edge0) / (edge1 - edge0), 0.0, 1.0)", "return t * t * (3.0 - 2.0 * t)"),
                         lambda m, k: 1.0),
}
LOSSES = ("huber", "pseudo_huber", "log_cosh", "cauchy", "squared_error")


def helper(w: KernelWriter, kind: str) -> str:
    """The helper `kind` written once into the kernel's module, named for what it does (with the
    kernel's suffix while the kernel is drawn: `naming.plain_module_names` drops it)."""
    name = f"{kind}_{w.name.split('_')[-1]}"
    if name not in w.helper_names:
        spec = HELPERS[kind]
        params = ", ".join(f"{p}: float" for p in spec.params)
        w.add_helper(f"@wp.func\ndef {name}({params}) -> float:\n" + "".join(f"    {line}\n" for line in spec.body)
                     .rstrip("\n"), name)
        w.feature(f"@wp.func helper ({kind.replace('_', ' ')})")
    return name


def call(w: KernelWriter, kind: str, *values: Expr) -> Expr:
    """A call of helper `kind` on `values`, its knobs passed as kernel parameters or literals."""
    spec = HELPERS[kind]
    knobs = []
    for knob, choices in spec.knobs:
        value = w.rng.choice(choices)
        knobs.append(value)
        values += (w.add_scalar(knob, "float32", value) if w.rng.random() < 0.5
                   else Expr(fmt_float(value), "float32", value, None, lit=True),)
    mag = spec.bound(max(v.mag for v in values[: len(spec.params) - len(spec.knobs)]), tuple(knobs))
    return Expr(f"{helper(w, kind)}({', '.join(v.src for v in values)})", "float32", mag, None)
