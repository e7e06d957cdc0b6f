"""What the per-form tests of the vector and matrix categories share: build one form of a FORMS table
into a kernel of its own (launch, packaging and coefficients chosen by the test), run it in Python,
and walk the elements its threads update."""
from __future__ import annotations

import random
import re
from typing import Iterator

import numpy as np

from synthesis.categories.common import FLAG_HINTS, MASK_HINTS
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
    w.output_update_share = 0.0  # the form's values as its formula gives them, not updated in place
    entry.build(Site(w, access, literal_knobs=literal_knobs), as_func)
    return w.finish("test")


def named(spec, *hints: str) -> str | None:
    """The argument whose name is one of `hints` (a form names each array for its role), or one
    stored as an array per component (`pos_x`, `pos_y`, ...: its values under `joined`), or None."""
    names = {a.name for a in spec.args}
    return next((a.name for a in spec.args if a.name in hints), None) or \
        next((h for h in hints if f"{h}_x" in names and f"{h}_y" in names), None)


def joined(spec, arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """`arrays` (the inputs, or what a run wrote) with each vector stored as one array per component
    also as one array of vectors, under its plain name (Site's structure-of-arrays data)."""
    out = dict(arrays)
    for a in spec.args:
        if a.name.endswith("_x") and f"{a.name[:-2]}_y" in arrays:
            base = a.name[:-2]
            axes = [f"{base}_{c}" for c in "xyz" if f"{base}_{c}" in arrays]
            out[base] = np.stack([arrays[n] for n in axes], axis=-1)
    return out


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
    thread past a padded launch's count or whose element a mask or flag bit marks inactive."""
    ids = next((a.name for a in spec.args if a.role == "index" and a.name in ACTIVE_HINTS
                and tuple(a.shape) == tuple(spec.dim)), None)
    count = next((a.value for a in spec.args if a.role == "scalar" and a.name in ("n", "count", "num")
                  and a.dtype == "int32"), None)
    skip = inactive(spec, inputs)
    for point in np.ndindex(*spec.dim):
        if count is not None and point[0] >= count or skip is not None and skip[point]:
            continue
        yield (int(inputs[ids][point[0]]),) if ids else point


def inactive(spec, inputs: dict[str, np.ndarray]) -> np.ndarray | None:
    """Per launch index, whether the kernel's `if mask[tid] == 0` / `if (flags[tid] & BIT) == 0`
    early return skips it (common.early_return); None without one."""
    mask = next((a.name for a in spec.args if a.name in MASK_HINTS and a.role == "input"), None)
    if mask is not None:
        return inputs[mask] == 0
    flags = next((a.name for a in spec.args if a.name in FLAG_HINTS and a.role == "input"), None)
    if flags is None:
        return None
    bit = re.search(rf"\(\s*{flags}\[\w+\] & (\w+)\) == 0", spec.source).group(1)
    value = int(re.search(rf"^{bit} = (?:wp\.constant\()?(\d+)", spec.source, re.M).group(1))
    return (inputs[flags] & value) == 0


__all__ = ["inactive", "joined", "build", "elements", "named", "scalar", "value"]
