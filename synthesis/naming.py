"""Local names as people write them.

While a kernel is drawn, its generators cannot know which names later code will take, so every local
they invent is numbered (`ExprGen.fresh`): `acc`, then `root`, then `lo`, `hi` become `acc__1`,
`root__2`, `lo__3`, `hi__4`. Once the whole module exists, `plain_names` gives each such local its
plain name (`acc`, `root`, `lo`, `hi`) where neither its function nor the module level uses that name
and no other numbered local of the function shares its prefix; else an alternative (`shrunk_val`,
`iters`); several of one prefix in a function are numbered from 1 (`acc1`, `acc2`).
Numbered locals everywhere (`acc1 = float(0.0)`, `lo3`, `hi4`, `it5`) were half the kernels' tell of
generated code, and a model trained on them learns to write them.
"""
from __future__ import annotations

import builtins
import keyword
import re

# A numbered local as `fresh_name` writes it: the prefix, a double underscore, the number. Hand-written
# templates never use a double underscore inside a name, so the pattern finds only fresh names.
_NUMBERED = re.compile(r"\b([A-Za-z][A-Za-z0-9_]*?)__(\d+)\b")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WORD = re.compile(r"\w+")  # a whole word: `\bname\b` is a word equal to name
# Where a top-level definition starts: a decorator, `def` or `class` in column 0 (after a line that is
# not itself a decorator, so a decorated function is one piece).
_TOP_LEVEL = re.compile(r"^(?:@|def |class )", re.M)
_PYTHON_NAMES = frozenset(keyword.kwlist) | frozenset(dir(builtins)) | {"wp", "self"}


def fresh_name(prefix: str, number: int) -> str:
    """The name of a generator's `number`th local, `prefix` its plain form (see `plain_names`)."""
    return f"{prefix}__{number}"


def untaken(hint: str, taken, role: str = "") -> str:
    """`hint`, or, where the name is taken (an output named like the local it stores, a local named like
    the array it was loaded from), the spelling people reach for before a number: an output `force_out`
    (`root_result` beside a `root_out`), an input `force_in`, a local `force_i` (the thread's own);
    numbered (`force2`) only when those are taken too, or for other names (parameters, constants).
    `force2` beside `force` reads as a second force, and a model trained on it learns to number names."""
    if hint not in taken:
        return hint
    if role in ("output", "inout"):
        variants = (hint[:-4] + "_result",) if hint.endswith("_out") else (hint + "_out",)
    elif role in ("input", "index"):
        variants = (hint + "_in",)
    elif role == "local":
        variants = (hint + "_i",)
    else:
        variants = ()
    for name in variants:
        if name not in taken and not reserved(name):
            return name
    n = 2
    while f"{hint}{n}" in taken:
        n += 1
    return f"{hint}{n}"


# What an output's name says it holds, read off its head word (the last, once a generic suffix such as
# `_out` is off: `grad_energy` holds an energy, `grad_mag` a magnitude): the quantities people add into
# a buffer over passes or contributions (`f[i] += ...`). An `rms_out`, `min_dist`, `quadrant_id` or
# `rotated` summed over launches means nothing; a model trained on `rms[tid] += ...` learns to write it.
# A generic name (`out`, `v_out`) says nothing of what it holds: `v_out[tid] += v_rot + g * DT` added a
# rotated velocity to whatever the array held (session 57).
ACCUMULATED_HEADS = frozenset({
    "force", "forces", "f", "grad", "grads", "gradient", "gradients", "energy", "energies", "loss", "losses",
    "cost", "objective", "penalty", "total", "totals", "sum", "sums", "acc", "accum", "accumulator", "count",
    "counts", "hist", "histogram", "bins", "hits", "votes", "flux", "impulse", "torque", "contribution",
    "contributions", "ke", "pe", "potential", "work", "heat", "charge", "deposit", "mass", "density",
    "integral", "series", "wave", "signal", "response", "field", "y", "ax", "c", "m", "j", "jac", "jacobian",
    "residual", "error", "moment", "moments", "mom", "momentum", "delta", "correction", "corrections", "dp",
    "displacement", "accumulated",
})
_GENERIC_SUFFIXES = frozenset({"out", "result", "res", "v", "i", "val", "value", "new", "next", "buf", "buffer"})


# What an output's name says it holds that people keep a running average of over passes (exponential
# smoothing, `loss_ema[i] = wp.lerp(loss_ema[i], loss, alpha)`): a statistic (a loss, an error, an
# energy, a mean or a variance) or a signal, image or colour (a filtered signal, a radiance accumulated
# over frames). A clipped value, a force, a slope or a polynomial's value smoothed over launches is a
# running estimate of nothing a program tracks, and Warp's own examples relax nothing but a Jacobi
# iterate; a model trained on `clipped[tid] = wp.lerp(clipped[tid], c, 0.9)` learns to smooth whatever
# it writes (session 57: 11% of kernels did).
SMOOTHED_HEADS = frozenset({
    "loss", "losses", "error", "err", "cost", "objective", "energy", "rms", "mean", "avg", "average", "var",
    "variance", "std", "power", "filtered", "smoothed", "blurred", "denoised", "signal", "envelope",
    "intensity", "luminance", "radiance", "color", "colour", "rgb", "brightness", "temperature", "ema",
})


def head_word(name: str) -> str:
    """The word of an output's name that says what it holds: the last, once a generic suffix such as
    `_out` or a vector component's `_y` is off (`grad_energy` holds an energy, `blurred_out` a blurred
    value, `n_out_y` a normal's component, no `y` that sums)."""
    words = [w for w in name.lower().rstrip("0123456789").split("_") if w]
    if len(words) > 1 and words[-1] in ("x", "y", "z", "w"):  # one component of a vector (`n_out_y`): the vector's
        words.pop()
    return next((w for w in reversed(words) if w not in _GENERIC_SUFFIXES), words[-1] if words else "")


def accumulates(name: str) -> bool:
    """Whether an output called `name` holds something people accumulate into (`ACCUMULATED_HEADS`)."""
    return head_word(name) in ACCUMULATED_HEADS


def smoothed(name: str) -> bool:
    """Whether an output called `name` holds something people keep a running average of (`SMOOTHED_HEADS`)."""
    return head_word(name) in SMOOTHED_HEADS


def running_names(name: str) -> tuple[str, ...]:
    """Names for the running average an output called `name` becomes once it is smoothed over passes
    (`loss` -> `running_loss`, `loss_ema`, `avg_loss`; `blurred_out` -> `blurred_ema`, ...): its name less
    a generic suffix, marked as an average where it does not say so already (`running_mean`)."""
    words = [w for w in name.rstrip("0123456789").split("_") if w]
    while len(words) > 1 and words[-1].lower() in _GENERIC_SUFFIXES:
        words.pop()
    base = "_".join(words) or name
    if head_word(base) in ("mean", "avg", "average", "smoothed"):
        return (f"running_{base}", f"{base}_ema")
    return (f"running_{base}", f"{base}_ema", f"{base}_avg", f"avg_{base}")


def reserved(name: str) -> bool:
    """A name a local must not take: Python's keywords and builtins, `wp`, and the names the CUDA
    translation reserves (C++ keywords, CUDA and harness names), which it would rename."""
    if name in _PYTHON_NAMES or name.endswith("_"):
        return True
    from cuda_production.translator import needs_rename

    return needs_rename(name)


def _definitions(source: str) -> list[str]:
    """`source` cut before each top-level definition (decorators kept with their function)."""
    starts = []
    previous_decorator = False
    for match in _TOP_LEVEL.finditer(source):
        if not previous_decorator:
            starts.append(match.start())
        previous_decorator = source[match.start()] == "@"
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    return [source[a:b] for a, b in zip(starts, starts[1:] + [len(source)])]


# Where a local's plain name is taken (often by the array it is stored to: `shrunk[tid] = shrunk_val`),
# the next names tried: per prefix where `<prefix>_val` reads wrong, else `<prefix>_val` for a word.
ALTERNATIVES: dict[str, tuple[str, ...]] = {
    "it": ("iters", "step"),
    "r": ("res",),
    "acc": ("total", "accum"),
}
_TOP_LEVEL_NAME = re.compile(r"^(?:(?:def|class)\s+(\w+)|(\w+)\s*=)", re.M)


def _alternatives(prefix: str) -> tuple[str, ...]:
    if prefix in ALTERNATIVES:
        return ALTERNATIVES[prefix]
    return (prefix + "_val",) if len(prefix) >= 3 else ()


def _names_in(piece: str, top_names: set[str]) -> dict[str, str]:
    """Each numbered local of one function -> its final name."""
    found: dict[str, tuple[str, str]] = {}
    for match in _NUMBERED.finditer(piece):
        found.setdefault(match.group(0), (match.group(1), match.group(2)))
    if not found:
        return {}
    taken = set(_IDENTIFIER.findall(piece)) | top_names
    series: dict[str, list[str]] = {}
    for marked, (prefix, _) in found.items():
        series.setdefault(prefix, []).append(marked)
    names: dict[str, str] = {}
    unchecked: list[str] = []  # numbered names, not yet checked against `taken`
    for prefix, marks in series.items():
        if len(marks) == 1:
            for candidate in (prefix,) + _alternatives(prefix):
                if candidate not in taken and not reserved(candidate):
                    names[marks[0]] = candidate
                    taken.add(candidate)
                    break
            else:
                names[marks[0]] = prefix + found[marks[0]][1]
                unchecked.append(names[marks[0]])
        else:  # several of one prefix in a function: a series, numbered from 1 in order of appearance
            for k, marked in enumerate(marks, 1):
                names[marked] = f"{prefix}{k}"
                unchecked.append(names[marked])
    if len(set(names.values())) != len(names) or any(name in taken for name in unchecked):
        # `v2__1` and `v__21` would both be `v21`, or a template wrote `v21` itself: keep them apart
        names = {marked: f"{prefix}_{number}" for marked, (prefix, number) in found.items()}
    return names


def plain_names(source: str) -> str:
    """`source` with each numbered local (`fresh_name`) renamed: to its plain prefix, or failing that
    to an alternative (`ALTERNATIVES`, `<prefix>_val`), when that name is free in its function and at
    module level, is not reserved, and no other numbered local of its function has the prefix; several
    of one prefix in a function are numbered from 1 (`acc1`, `acc2`)."""
    if "__" not in source:
        return source
    top_names = {a or b for a, b in _TOP_LEVEL_NAME.findall(source)}
    pieces = []
    for piece in _definitions(source):
        names = _names_in(piece, top_names)
        pieces.append(_NUMBERED.sub(lambda m: names[m.group(0)], piece) if names else piece)
    return "".join(pieces)


# Warp builtins a helper is not named after: `smoothstep(x, a, b)` calling the module's own function
# reads as Warp's builtin to anyone who knows Warp.
_WARP_BUILTIN_NAMES = frozenset({"smoothstep", "lerp", "clamp", "sign", "step", "length", "normalize", "dot",
                                  "cross", "min", "max", "abs", "sqrt", "exp", "log", "sin", "cos", "tanh"})
# The name a helper takes where its plain name is not free, where `<name>_fn` reads wrong.
_HELPER_ALTERNATIVES = {"smoothstep": "smooth_step"}


def _plain_module_name(name: str, kernel_name: str) -> str | None:
    """The plain form of a helper's or constant's name that the generators made unique per kernel
    (`huber_9b2e5a7617`, `tile_7049bba659_weighted_product`, `MU_0DEFFB29BC`), else None."""
    suffix = kernel_name.rsplit("_", 1)[-1]
    if name.startswith(kernel_name + "_"):
        return name[len(kernel_name) + 1:]
    for end in ("_" + suffix, "_" + suffix.upper()):
        if name.endswith(end) and len(name) > len(end):
            return name[: -len(end)]
    return None


def plain_module_names(source: str, kernel_name: str) -> str:
    """`source` with each helper and module constant named as people name them (`huber`, `MU`), not
    with the kernel's hash (`huber_9b2e5a7617`, `MU_0DEFFB29BC`), where the plain name is free in the
    module, not reserved and not a Warp builtin's; else an alternative (`smooth_step`, `<plain>_fn`,
    `<PLAIN>_VALUE`). (Kernels that share a Warp module, as the CPU reference runs them, get their own
    names there: see `cuda_production.reference`.)"""
    plains = {name: plain for name in (a or b for a, b in _TOP_LEVEL_NAME.findall(source)) if name != kernel_name
              for plain in (_plain_module_name(name, kernel_name),) if plain is not None}
    if not plains:
        return source
    renames: dict[str, str] = {}
    taken = set(_IDENTIFIER.findall(source))
    for name, plain in plains.items():
        fallback = plain + "_VALUE" if plain.isupper() else _HELPER_ALTERNATIVES.get(plain, plain + "_fn")
        for candidate in (plain, fallback):
            if candidate not in taken and not reserved(candidate) and candidate not in _WARP_BUILTIN_NAMES:
                renames[name] = candidate
                taken.add(candidate)
                break
    if not renames:
        return source
    # every word looked up, not one pattern of the names compiled per kernel (re's cache misses)
    return _WORD.sub(lambda m: renames.get(m.group(0), m.group(0)), source)
