"""What the per-form tests of the vector and matrix categories share: build one form of a FORMS table
into a kernel of its own (launch, packaging and coefficients chosen by the test), run it in Python,
and walk the elements its threads update."""
from __future__ import annotations

import random
from typing import Iterator

import numpy as np

from synthesis.categories.rich import RichKernelWriter
from synthesis.categories.site import ACTIVE_HINTS, Site

ROWS = 24  # threads of a 1-D launch
GRID = (5, 4)  # threads of a 2-D launch


def build(module, forms: dict, form: str, seed: int, access: str | None = None, as_func: bool | None = None,
          literal_knobs: bool = True):
    """Form `form` of `forms` (module's table) as a kernel of its own, named like a generated one (its
    helpers take the suffix). `literal_knobs=False`: every coefficient a kernel parameter, so a test can
    read its value from the arguments."""
    rng = random.Random(seed)
    entry = forms[form]
    access = access or rng.choice(entry.accesses)
    as_func = rng.random() < 0.5 if as_func is None else as_func
    dim = GRID if access == "grid" else (ROWS,)
    w = RichKernelWriter(rng, "k_0a1b2c3d4e", module.__name__.rsplit(".", 1)[-1], seed, dim)
    entry.build(Site(w, access, literal_knobs=literal_knobs), as_func)
    return w.finish("test")


def named(spec, *hints: str) -> str | None:
    """The argument whose name is one of `hints` (a form names each array for its role), or None."""
    return next((a.name for a in spec.args if a.name in hints), None)


def scalar(spec, *hints: str):
    return next((a.value for a in spec.args if a.name in hints and a.role == "scalar"), None)


def value(spec, *hints: str) -> np.ndarray | None:
    """A by-value vector or matrix parameter as numpy, or None."""
    arg = next((a for a in spec.args if a.name in hints and a.role == "scalar"), None)
    if arg is None:
        return None
    v = np.array(arg.value, dtype=np.float64)
    n = int(round(len(v) ** 0.5))
    return v.reshape(n, n) if arg.dtype.startswith("mat") else v


def elements(spec, inputs: dict[str, np.ndarray]) -> Iterator[tuple]:
    """The element each thread updates: its own, the one an active-set index array names, none for a
    thread past a padded launch's count."""
    ids = next((a.name for a in spec.args if a.role == "index" and a.name in ACTIVE_HINTS
                and tuple(a.shape) == tuple(spec.dim)), None)
    count = next((a.value for a in spec.args if a.role == "scalar" and a.name in ("n", "count", "num")
                  and a.dtype == "int32"), None)
    for point in np.ndindex(*spec.dim):
        if count is not None and point[0] >= count:
            continue
        yield (int(inputs[ids][point[0]]),) if ids else point


__all__ = ["build", "elements", "named", "scalar", "value"]
