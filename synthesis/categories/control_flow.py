"""Control flow: the loops people write (LOOP_FORMS), with constant or argument bounds, while,
break/continue, and a bool flag a loop sets (`hit = bool(False)`, Warp's spelling of a mutable flag)."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, NamedTuple

from synthesis.categories import sparse
from synthesis.categories.common import add_inputs, early_return, pick_dim, takes_variant
from synthesis.exprgen import WORD, Expr, KernelWriter, fmt_float
from synthesis.spec import KernelSpec

ZERO = Expr("0.0", "float32", 0.0, 0, lit=True)


# ---- the loops people write ---------------------------------------------------------------------
# One table entry per loop form, as the builtins are registered: each reads the thread's neighbourhood
# or iterates on its value with a purpose (a filter, a polynomial, a series, a Newton iteration, a
# search), so every trip differs and the loop computes what its name says.


class LoopResult(NamedTuple):
    value: Expr
    hint: str  # the output array's name
    # a result that replaces the old one (an index or value a search found, a root, an angle, a
    # filter's state): stored as it is, never added to or blended with the array's old element
    state: bool = False
    # a value within its inputs' range (a window's extremum): only smoothed toward (an envelope
    # follower), never summed
    bounded: bool = False


@dataclass(frozen=True)
class SharedWindow:
    """The window every scan of a kernel of several reads, as one person's kernel has one: `width`
    elements (centred on the thread, ahead of it or its history), each bound the literal. Drawn
    apart, a filter of 7 taps beside a count over 3 and a search 4 ahead reads as three kernels."""
    width: int


# The window widths a kernel of several scans shares: odd, so a centred window has as many elements
# as one ahead of the thread or behind it.
SHARED_WIDTHS = (3, 5, 5, 7, 7, 9)


def _width(w: KernelWriter, window: SharedWindow | None, choices: list[int]) -> int:
    """The kernel's shared width, or a width of the form's own."""
    return window.width if window is not None else w.rng.choice(choices)


def _window_index(w: KernelWriter, offset: str, array: str) -> str:
    """`wp.clamp(tid + offset, 0, a.shape[0] - 1)`: an element near the thread's own, clamped to the
    array (to its own extent, as kernels that run on any size write it, not to a literal)."""
    return f"wp.clamp({_own(w)} + {offset}, 0, {_extent(w, array)} - 1)"


# A window runs along the launch's last axis: a 1-D signal, or each row of a 2-D grid (an image's rows
# filtered), the other indices the thread's own.
def _own(w: KernelWriter) -> str:
    """The thread's index along the window's axis."""
    return w.tid_names[-1]


def _extent(w: KernelWriter, array: str) -> str:
    return f"{array}.shape[{len(w.dim) - 1}]"


def _at(w: KernelWriter, array: str, index: str) -> str:
    """`array`'s element at `index` along the window's axis, in the thread's row."""
    return f"{array}[{', '.join([*w.tid_names[:-1], index])}]"


def _iterations(w: KernelWriter, choices: list[int]) -> str:
    """An iterative solve's trip count: a literal (most often), a kernel parameter the caller tunes,
    or a module constant."""
    n = w.rng.choice(choices)
    how = w.rng.random()
    if how < 0.3:
        w.feature("iteration count as a parameter")
        return w.add_scalar(w.rng.choice(["n_iter", "iterations", "max_iter"]), "int32", n).src
    if how < 0.45:
        w.feature("iteration count as a module constant")
        return w.add_constant(w.rng.choice(["ITERATIONS", "NUM_ITERS", "SOLVER_ITERS"]), n).src
    return str(n)


def _coefficient(w: KernelWriter, choices: list[float], hints: list[str]) -> str:
    """A model's coefficient (an eccentricity, a decay): a literal, or a parameter passed by value."""
    value = w.rng.choice(choices)
    if w.rng.random() < 0.4:
        return w.add_scalar(w.rng.choice(hints), "float32", value).src
    return fmt_float(value)


def _temp(w: KernelWriter, hint: str) -> str:
    """A loop temporary's name (`v`, `j`, `mid`): `hint`, or a longer one where an argument has it
    (Warp does not let a local take a parameter's symbol)."""
    name = hint
    for alternative in (f"{hint}_elem", f"{hint}_tmp", f"{hint}_{w.counter}"):
        if not w.is_argument(name) and name not in w.tid_names:  # nor a launch index (`j` of `i, j`)
            break
        name = alternative
    return name


def _bound(w: KernelWriter, hints: list[str], trips: int) -> str:
    """A loop bound: the trip count, or (one time in three) a kernel parameter holding it."""
    if w.rng.random() < 0.33:
        w.feature("argument loop bound")
        return w.add_scalar(w.rng.choice(hints), "int32", trips).src
    return str(trips)


def _coefficients(w: KernelWriter, hints: tuple[str, ...], length: int) -> str:
    table = w.add_array(w.rng.choice(hints), "float32", "input", shape=(length,), low=-1.0, high=1.0, grid_bits=4)
    if table in w.unused:
        w.unused.remove(table)  # read by the trip, never at the thread's own index
    return table


def fir_filter(w: KernelWriter, loads: list[str], window: SharedWindow | None = None) -> list[LoopResult]:
    """A filter: taps weight the elements of a window centred on the thread's own (a convolution)."""
    name, taps = w.rng.choice(loads), _width(w, window, [3, 5, 7, 9])
    table = _coefficients(w, ("taps", "kernel_w", "weights", "coef"), taps)
    acc = w.declare(w.fresh("acc"), ZERO, taps * w.arg(name).high, None)
    update = "+=" if w.rng.random() < 0.5 else f"= {acc.src} +"
    r = taps // 2
    # session 47: the signal zero outside the array (a branch per tap) rather than its edge repeated
    zero_padded = breadth(w).random() < 0.3
    if w.rng.random() < 0.5:  # over the taps
        j = _temp(w, "j")
        with w.block(f"for k in range({taps}):"):
            if zero_padded:
                w.emit(f"{j} = {_own(w)} + k - {r}")
                with w.block(f"if {j} >= 0 and {j} < {_extent(w, name)}:"):
                    w.emit(f"{acc.src} {update} {table}[k] * {_at(w, name, j)}")
            else:
                w.emit(f"{j} = {_window_index(w, f'k - {r}', name)}")
                w.emit(f"{acc.src} {update} {table}[k] * {_at(w, name, j)}")
    else:  # over the offsets
        with w.block(f"for k in range(-{r}, {r + 1}):"):
            if zero_padded:
                j = _temp(w, "j")
                w.emit(f"{j} = {_own(w)} + k")
                with w.block(f"if {j} >= 0 and {j} < {_extent(w, name)}:"):
                    w.emit(f"{acc.src} {update} {table}[k + {r}] * {_at(w, name, j)}")
            else:
                w.emit(f"{acc.src} {update} {table}[k + {r}] * {_at(w, name, _window_index(w, 'k', name))}")
    w.feature("windowed filter (taps)")
    if zero_padded:
        w.feature("zero outside the array")
    return [LoopResult(acc, "filtered")]


def _term_index(w: KernelWriter) -> str:
    """A series' or polynomial's term index: `k`, or `n` where `k` is a launch index (`i, j, k =
    wp.tid()`), which a loop counter of that name would overwrite."""
    return _temp(w, "n") if "k" in w.tid_names else "k"


def horner_loop(w: KernelWriter, loads: list[str], value: Expr | None = None) -> list[LoopResult]:
    """A polynomial with coefficients from a table, evaluated at the thread's value by Horner's rule."""
    x = value or w.load(w.rng.choice(loads))
    degree = w.rng.randint(2, 5)
    table = _coefficients(w, ("coef", "poly", "c"), degree + 1)
    if w.rng.random() < 0.25:  # expanded about a point (a Taylor polynomial's centre), not zero
        centre = _coefficient(w, [0.5, -0.5, 0.25], ["x0", "centre", "origin"])
        shift = f"+ {centre[1:]}" if centre.startswith("-") else f"- {centre}"
        x = w.assign(Expr(f"{x.src} {shift}", "float32", x.mag + 0.5, None, atom=False), prefix="t")
        w.feature("polynomial about a point (shifted variable)")
    y = w.declare(w.fresh("y"), ZERO, sum(x.mag ** k for k in range(degree + 1)), None)
    slope = w.rng.random() < 0.4  # the derivative alongside, as Newton's method needs it
    dy = w.declare(w.fresh("dy"), ZERO, degree * y.mag, None) if slope else None
    # the table highest power first (`for k in range(n)`), or lowest first as numpy.polynomial
    # keeps it (walked from its end)
    order = w.rng.choice(["highest first", "highest first", "lowest first"])
    # the degree from the table's length, so one kernel serves any degree, or the literal
    terms = f"{table}.shape[0]" if w.rng.random() < 0.3 else str(degree + 1)
    last = str(degree) if terms.isdigit() else f"{terms} - 1"
    k = _term_index(w)
    header = f"for {k} in range({terms}):" if order == "highest first" else f"for {k} in range({last}, -1, -1):"
    if not terms.isdigit():
        w.feature("degree from the table's length (.shape)")
    with w.block(header):
        if slope:
            w.emit(f"{dy.src} = {dy.src} * {x.src} + {y.src}")
        w.emit(f"{y.src} = {y.src} * {x.src} + {table}[{k}]")
    if order == "lowest first":
        w.feature("coefficients lowest power first")
    w.feature("polynomial from a coefficient table (Horner loop)" + (", with its derivative" if slope else ""))
    return [LoopResult(y, "poly_out")] + ([LoopResult(dy, "slope_out")] if slope else [])


def exp_series(w: KernelWriter, loads: list[str], value: Expr | None = None) -> list[LoopResult]:
    """The exponential's Taylor series, term by term: each term the last times x / k."""
    x = value or w.load(w.rng.choice(loads))
    terms = w.rng.choice([6, 8, 10, 12])
    bound = _bound(w, ["n_terms", "terms", "order"], terms)
    k = _term_index(w)
    if w.rng.random() < 0.35:  # the sine's series: odd powers, alternating, term *= -x^2 / ((2k)(2k + 1))
        term = w.declare(w.fresh("term"), x, 8.0, None)
        total = w.declare(w.fresh("total"), x, 8.0, None)
        with w.block(f"for {k} in range(1, {bound}):"):
            w.emit(f"{term.src} = -{term.src} * {x.src} * {x.src} / float((2 * {k}) * (2 * {k} + 1))")
            w.emit(f"{total.src} += {term.src}")
        w.feature("Taylor series (sin)")
        return [LoopResult(total, "series")]
    term = w.declare(w.fresh("term"), Expr("1.0", "float32", 1.0, 0, lit=True), 8.0, None)
    total = w.declare(w.fresh("total"), Expr("1.0", "float32", 1.0, 0, lit=True), 8.0, None)
    # session 53, from a stream of its own: the loop left once a term no longer moves the sum
    converged = takes_variant(w.seed, 0x5E41, 0.35)
    if w.rng.random() < 0.5:
        with w.block(f"for {k} in range(1, {bound}):"):
            w.emit(f"{term.src} = {term.src} * {x.src} / float({k})")
            w.emit(f"{total.src} += {term.src}")
            if converged:
                _stop_when_negligible(w, term.src, total.src)
    else:
        with w.block(f"for {k} in range({bound}):"):
            w.emit(f"{term.src} *= {x.src} / float({k} + 1)")
            w.emit(f"{total.src} = {total.src} + {term.src}")
            if converged:
                _stop_when_negligible(w, term.src, total.src)
    w.feature("Taylor series (exp)")
    return [LoopResult(total, "series")]


def _stop_when_negligible(w: KernelWriter, term: str, total: str) -> None:
    """`break` once the last term is below the sum's rounding: the series has converged."""
    with w.block(f"if wp.abs({term}) < {w.rng.choice(['1.0e-7', '1.0e-6'])} * wp.abs({total}):"):
        w.emit("break")
    w.feature("stopped once a term is negligible")


def newton_sqrt(w: KernelWriter, loads: list[str], value: Expr | None = None) -> list[LoopResult]:
    """Newton's iteration for a square root, `y = 0.5 * (y + s / y)`, from y = s on a positive value."""
    first = w.rng.choice(loads)
    x = value or w.load(first)
    form = w.rng.choice(["plus_one", "abs", "norm"] if len(loads) > 1 and value is None else ["plus_one", "abs"])
    if form == "plus_one":
        s = Expr(f"{x.src} * {x.src} + 1.0", "float32", x.mag * x.mag + 1.0, None, atom=False)
    elif form == "abs":
        s = Expr(f"wp.abs({x.src}) + 0.5", "float32", x.mag + 0.5, None, atom=False)
    else:  # the length of (x, y), kept off zero
        y_ = w.load(w.rng.choice([n for n in loads if n != first]))
        s = Expr(f"{x.src} * {x.src} + {y_.src} * {y_.src} + 0.25", "float32", x.mag ** 2 + y_.mag ** 2 + 0.25, None,
                 atom=False)
    s = w.assign(s, prefix="s")
    start = s if w.rng.random() < 0.5 else Expr("1.0", "float32", 1.0, 0, lit=True)
    y = w.declare(w.fresh("root"), start, max(s.mag, 1.0), None)
    # session 53, from a stream of its own: the cube root, y = (2 y + s / y^2) / 3
    cube = form != "norm" and takes_variant(w.seed, 0x5E44, 0.3)
    with w.block(f"for it in range({_iterations(w, [5, 6, 8] if cube else [4, 5, 6])}):"):
        w.emit(f"{y.src} = (2.0 * {y.src} + {s.src} / ({y.src} * {y.src})) / 3.0" if cube else
               f"{y.src} = 0.5 * ({y.src} + {s.src} / {y.src})")
    w.feature("Newton iteration (cube root)" if cube else "Newton iteration (square root)")
    results = [LoopResult(y, "root_out", state=True)]
    # session 53, from a stream of its own: what the root is wanted for, stored beside it: the vector
    # (x, y) scaled to unit length by it, or its inverse (a normalisation factor)
    use = random.Random(w.seed ^ 0x5E42).choices(["root", "direction", "inverse"], weights=[0.5, 0.25, 0.25])[0]
    if use == "direction" and form == "norm":
        results += [LoopResult(Expr(f"{x.src} / {y.src}", "float32", 1.0, None, atom=False), "dir_x", state=True),
                    LoopResult(Expr(f"{y_.src} / {y.src}", "float32", 1.0, None, atom=False), "dir_y", state=True)]
        w.feature("unit direction by the root")
    elif use != "root":
        results.append(LoopResult(Expr(f"1.0 / {y.src}", "float32", 2.0, None, atom=False), "inv_root", state=True))
        w.feature("inverse of the root")
    return results


def kepler(w: KernelWriter, loads: list[str], value: Expr | None = None) -> list[LoopResult]:
    """Kepler's equation E = M + e sin E solved by fixed-point iteration (e < 1: a contraction)."""
    m = value or w.load(w.rng.choice(loads))
    e = _coefficient(w, [0.125, 0.25, 0.5], ["ecc", "eccentricity"])
    start = m
    if w.rng.random() < 0.35:  # the first-order guess E0 = M + e sin M, a step closer than M itself
        start = Expr(f"{m.src} + {e} * wp.sin({m.src})", "float32", m.mag + 1.0, None, atom=False)
        w.feature("first-order starting guess")
    big_e = w.declare(w.fresh("ecc_anom"), start, m.mag + 1.0, None)
    if w.rng.random() < 0.5:
        with w.block(f"for it in range({_iterations(w, [5, 6, 8, 10])}):"):
            w.emit(f"{big_e.src} = {m.src} + {e} * wp.sin({big_e.src})")
        w.feature("fixed-point iteration (Kepler's equation)")
    else:  # Newton's method on E - e sin E - M: 1 - e cos E >= 1 - e > 0
        spelled = w.rng.random() < 0.5  # the residual and its derivative named, as a solver reads
        stop = spelled and w.rng.random() < 0.5  # and the loop left once the residual is small
        with w.block(f"for it in range({_iterations(w, [3, 4, 5] if not stop else [6, 8, 10])}):"):
            if spelled:
                f, fp = _temp(w, "f"), _temp(w, "df")
                w.emit(f"{f} = {big_e.src} - {e} * wp.sin({big_e.src}) - {m.src}")
                if stop:
                    with w.block(f"if wp.abs({f}) < {w.rng.choice(['1.0e-6', '1.0e-5', '1.0e-4'])}:"):
                        w.emit("break")
                w.emit(f"{fp} = 1.0 - {e} * wp.cos({big_e.src})")
                w.emit(f"{big_e.src} = {big_e.src} - {f} / {fp}")
            else:
                w.emit(f"{big_e.src} = {big_e.src} - ({big_e.src} - {e} * wp.sin({big_e.src}) - {m.src}) / "
                       f"(1.0 - {e} * wp.cos({big_e.src}))")
        w.feature("Newton iteration (Kepler's equation)" + (", stopped at a tolerance" if stop else ""))
    results = [LoopResult(big_e, "anomaly", state=True)]
    # session 53, from a stream of its own: what an orbit propagator wants from E, beside it: the true
    # anomaly (the angle from periapsis) or the distance from the focus, r = a (1 - e cos E)
    after = random.Random(w.seed ^ 0x5E43).choices(["none", "true anomaly", "radius"], weights=[0.4, 0.3, 0.3])[0]
    if after == "true anomaly":
        half = _temp(w, "half_e")
        w.emit(f"{half} = 0.5 * {big_e.src}")
        if e.isidentifier():
            plus, minus = f"wp.sqrt(1.0 + {e})", f"wp.sqrt(1.0 - {e})"
        else:  # a literal eccentricity: the square roots folded, as a person writes the constants
            plus, minus = (f"{math.sqrt(1.0 + sign * float(e)):.7f}" for sign in (1, -1))
        results.append(LoopResult(Expr(f"2.0 * wp.atan2({plus} * wp.sin({half}), {minus} * wp.cos({half}))", "float32",
                                       math.pi + 1e-3, None, atom=False), "true_anomaly", state=True))
        w.feature("true anomaly from the eccentric anomaly")
    elif after == "radius":
        a = _coefficient(w, [1.0, 1.5, 2.5], ["semi_major", "axis"])
        distance = f"1.0 - {e} * wp.cos({big_e.src})"
        results.append(LoopResult(Expr(distance if a == "1.0" else f"{a} * ({distance})", "float32", 4.0, None,
                                       atom=False), "radius", state=True))
        w.feature("orbital radius from the eccentric anomaly")
    return results


CENTRED_WINDOW_SHARE = 0.4  # of running extremes: the window centred on the thread, not ahead of it
LEAK_RATES = (0.0, 0.0, 0.25, 0.5)  # a tanh cell's, drawn evenly: 0 for none


def running_max(w: KernelWriter, loads: list[str], window: SharedWindow | None = None) -> list[LoopResult]:
    """The largest element of the window ahead of the thread, and where it is (an arg-max)."""
    name, width = w.rng.choice(loads), _width(w, window, [4, 5, 8])
    first = w.load(name)
    op, with_arg = w.rng.choice([">", "<"]), w.rng.random() < 0.6
    # session 50, from a stream of its own: a window centred on the thread (a max or min filter, as
    # grey-scale dilation and erosion are written), its offsets -h..h, the arg an offset from the thread
    centred = _centred_extremum(w.seed)
    half = width // 2 - (width == 8)  # 2, 2, 3: windows of 5, 5, 7 (a shared odd width: that width)
    v = _temp(w, "v")
    best = w.declare(w.fresh("best"), first, first.mag, first.q)
    arg = w.declare(w.fresh("arg"), Expr("0", "int32", 0.0, 0, lit=True), float(width), 0) if with_arg else None
    if centred:
        w.feature("window centred on the thread")
    with w.block(f"for k in range(-{half}, {half + 1}):" if centred else f"for k in range(1, {width}):"):
        w.emit(f"{v} = {_at(w, name, _window_index(w, 'k', name))}" if centred else
               f"{v} = {_at(w, name, f'wp.min({_own(w)} + k, {_extent(w, name)} - 1)')}")
        with w.block(f"if {v} {op} {best.src}:"):
            w.emit(f"{best.src} = {v}")
            if with_arg:
                w.emit(f"{arg.src} = k")
    w.note_varying(best.src, first.src)
    if with_arg:
        w.note_varying(arg.src, first.src)
    kind = "maximum" if op == ">" else "minimum"
    w.feature(f"running {kind}" + (f" (arg-{kind[:3]})" if with_arg else ""))
    return [LoopResult(best, f"window_{kind[:3]}", bounded=True)] + ([LoopResult(arg, f"arg{kind[:3]}", state=True)] if with_arg else [])


def _count_if(w: KernelWriter, count: str, test: str, branchless_share: float) -> None:
    """`count += 1` where `test` holds: in an `if`, or (`branchless_share` of the time) without a branch,
    `count += wp.where(test, 1, 0)`."""
    if w.rng.random() < branchless_share:
        w.emit(f"{count} += wp.where({test}, 1, 0)")
    else:
        with w.block(f"if {test}:"):
            w.emit(f"{count} += 1")


def _track_extremes(w: KernelWriter, lo: str, hi: str, v: str) -> None:
    """The window's smallest and largest elements so far, updated by `v`."""
    w.emit(f"{lo} = wp.min({lo}, {v})")
    w.emit(f"{hi} = wp.max({hi}, {v})")


def count_above(w: KernelWriter, loads: list[str], window: SharedWindow | None = None) -> list[LoopResult]:
    """How many elements of a centred window exceed a threshold."""
    name, width = w.rng.choice(loads), _width(w, window, [3, 5, 7])
    spec = w.arg(name)
    t = w.rng.choice([-0.5, 0.0, 0.25, 0.5, 1.0]) * (spec.high - spec.low) / 4
    t = _coefficient(w, [t], ["threshold", "level", "cutoff"]) if t != 0.0 else fmt_float(t)
    count = w.declare(w.fresh("count"), Expr("0", "int32", 0.0, 0, lit=True), float(width), 0)
    op = w.rng.choice(['>', '>=', '<'])
    with w.block(f"for k in range({width}):"):
        _count_if(w, count.src, f"{_at(w, name, _window_index(w, f'k - {width // 2}', name))} {op} {t}", 0.3)
    w.note_varying(count.src, w.load(name).src)
    w.feature("count over a window")
    return [LoopResult(count, "count_out")]


def peak_to_peak(w: KernelWriter, loads: list[str], window: SharedWindow | None = None) -> list[LoopResult]:
    """The smallest and largest elements of a centred window in one pass, and their difference (a
    signal's peak-to-peak swing, a local contrast); the extremes stored beside it now and then."""
    name, width = w.rng.choice(loads), _width(w, window, [3, 5, 7, 9])
    first = w.load(name)
    lo = w.declare(w.fresh("lo"), first, first.mag, first.q)
    hi = w.declare(w.fresh("hi"), first, first.mag, first.q)
    v = _temp(w, "v")
    half = width // 2
    with w.block(f"for k in range(-{half}, {half + 1}):"):
        w.emit(f"{v} = {_at(w, name, _window_index(w, 'k', name))}")
        _track_extremes(w, lo.src, hi.src, v)
    for local in (lo.src, hi.src):
        w.note_varying(local, first.src)
    w.feature("window minimum and maximum in one pass")
    swing = LoopResult(Expr(f"{hi.src} - {lo.src}", "float32", 2.0 * first.mag, first.q, atom=False),
                       w.rng.choice(["swing", "contrast", "peak_to_peak"]), state=True)
    # session 54, from a stream of its own: what the swing is wanted for, beside it or instead: the
    # window's midrange (the centre of its envelope), or an edge mark where the swing passes a level
    use = random.Random(w.seed ^ 0x5E47).choices(["swing", "midrange", "edge"], weights=[0.5, 0.25, 0.25])[0]
    if use == "midrange":
        w.feature("the window's midrange")
        return [swing, LoopResult(Expr(f"0.5 * ({hi.src} + {lo.src})", "float32", first.mag, None, atom=False),
                                  "midrange", bounded=True)]
    if use == "edge":
        spec = w.arg(name)
        level = _coefficient(w, [0.25 * (spec.high - spec.low), 0.5 * (spec.high - spec.low)],
                             ["edge_level", "threshold", "min_contrast"])
        w.feature("an edge where the swing passes a level")
        return [LoopResult(Expr(f"1 if {hi.src} - {lo.src} > {level} else 0", "int32", 1.0, 0, atom=False), "edge")]
    if w.rng.random() < 0.3:
        return [LoopResult(lo, "window_lo", bounded=True), LoopResult(hi, "window_hi", bounded=True), swing]
    return [swing]


# The statistics one pass over a window gathers, a local-statistics filter's: the mean, the variance
# (from the sums of the elements and of their squares; a standard deviation at times), the extremes and
# the count past a threshold.
WINDOW_STATISTICS = ("mean", "variance", "extremes", "count")
# What the other scans of the centred window gather, when a kernel holds several (ONE_PASS_FORMS): the
# taps' weighted sum, the sum of one sign's elements, the window's extremum and its offset.
FUSED_STATISTICS = ("filtered", "signed sum", "arg extreme")
# The forms that read each element of the thread's centred window once and stop at none, and what each
# gathers. Two of them in one kernel are one loop: a person gathers a filtered value and a count in one
# pass over the window, not in two loops over the same elements (session 60: a quarter of the kernels of
# several scans had two). A running extreme is one of them when its window is centred.
ONE_PASS_FORMS = {"windowed filter": ("filtered",), "count over a window": ("count",),
                  "peak to peak": ("extremes",), "sum with continue": ("signed sum",),
                  "running maximum": ("arg extreme",), "statistics in one pass": ()}


def _centred_extremum(seed: int) -> bool:
    """Whether a kernel's running extreme scans a window centred on the thread (not ahead of it): a
    stream of its own (session 50)."""
    return random.Random(seed ^ 0xC7F5).random() < CENTRED_WINDOW_SHARE


def window_statistics(w: KernelWriter, loads: list[str], window: SharedWindow | None = None,
                      fused: tuple[str, ...] = (), own: bool = True) -> list[LoopResult]:
    """Two or three statistics of the centred window gathered in one loop, as a person computes a local
    mean beside a local variance, or a count beside the extremes, rather than one loop per statistic.
    `fused`: the statistics of the kernel's other scans of the window (ONE_PASS_FORMS), gathered in the
    same loop; `own`: whether the one-pass form is among the kernel's scans (and draws statistics of its
    own), not only the loop that gathers the others'."""
    name, width = w.rng.choice(loads), _width(w, window, [3, 5, 7, 9])
    spec, half = w.arg(name), width // 2
    first = w.load(name)
    wanted = w.rng.sample(WINDOW_STATISTICS, w.rng.choice([2, 2, 3])) if own else []
    if "variance" in wanted and "mean" not in wanted and w.rng.random() < 0.5:
        wanted.append("mean")  # the mean the variance is taken about, stored beside it
    wanted += [s for s in fused if s not in wanted]
    summed = "mean" in wanted or "variance" in wanted
    total = w.declare(w.fresh("total"), ZERO, width * first.mag, first.q) if summed else None
    total_sq = w.declare(w.fresh("total_sq"), ZERO, width * first.mag ** 2, None) if "variance" in wanted else None
    lo = w.declare(w.fresh("lo"), first, first.mag, first.q) if "extremes" in wanted else None
    hi = w.declare(w.fresh("hi"), first, first.mag, first.q) if "extremes" in wanted else None
    count = w.declare(w.fresh("count"), Expr("0", "int32", 0.0, 0, lit=True), float(width), 0) \
        if "count" in wanted else None
    if count is not None:
        level = w.rng.choice([0.0, 0.25, 0.5]) * (spec.high - spec.low) / 2
        level = _coefficient(w, [level], ["threshold", "level", "cutoff"]) if level else fmt_float(level)
        op = w.rng.choice([">", ">=", "<"])
    terms = [_FUSED_TERMS[s](w, name, width, first) for s in FUSED_STATISTICS if s in wanted]
    # the loop over the taps (`range(width)`, the offset `k - half`) or over the offsets; the one-pass
    # form alone keeps its own (the offsets)
    taps = bool(fused) and random.Random(w.seed ^ 0xC7F8).random() < 0.5
    offset = f"k - {half}" if taps else "k"
    v = _temp(w, "v")
    with w.block(f"for k in range({width}):" if taps else f"for k in range(-{half}, {half + 1}):"):
        w.emit(f"{v} = {_at(w, name, _window_index(w, offset, name))}")
        for term in terms:
            term.step(v, "k" if taps else f"k + {half}", offset)
        if total is not None:
            w.emit(f"{total.src} += {v}")
        if total_sq is not None:
            w.emit(f"{total_sq.src} += {v} * {v}")
        if lo is not None:
            _track_extremes(w, lo.src, hi.src, v)
        if count is not None:
            _count_if(w, count.src, f"{v} {op} {level}", 0.4)
    for local in (total, total_sq, lo, hi, count):
        if local is not None:
            w.note_varying(local.src, first.src)
    results = [r for term in terms for r in term.results()]
    n = fmt_float(float(width))
    if summed:
        mean = w.assign(Expr(f"{total.src} / {n}", "float32", first.mag, None, atom=False), prefix="mean")
        if "mean" in wanted:
            results.append(LoopResult(mean, w.rng.choice(["local_mean", "mean_out"]), state=True))
    if total_sq is not None:
        var = w.assign(Expr(f"{total_sq.src} / {n} - {mean.src} * {mean.src}", "float32", first.mag ** 2, None,
                            atom=False), prefix="var")
        if w.rng.random() < 0.4:
            results.append(LoopResult(Expr(f"wp.sqrt(wp.max({var.src}, 0.0))", "float32", first.mag, None),
                                      "local_std", state=True))
            w.feature("local standard deviation")
        else:
            results.append(LoopResult(var, w.rng.choice(["local_var", "variance"]), state=True))
            w.feature("local variance")
    if lo is not None:
        if w.rng.random() < 0.5:
            results.append(LoopResult(Expr(f"{hi.src} - {lo.src}", "float32", 2.0 * first.mag, first.q, atom=False),
                                      w.rng.choice(["local_range", "swing", "contrast"]), state=True))
        else:
            results += [LoopResult(lo, "window_lo", bounded=True), LoopResult(hi, "window_hi", bounded=True)]
    if count is not None:
        results.append(LoopResult(count, "count_out"))
    w.feature(f"{len(results)} window statistics in one pass" if own else "the window's scans in one loop")
    return results


class _ScanTerm(NamedTuple):
    """One statistic of a fused scan: `step(v, tap, offset)` emits its update for the element `v` (the
    loop's tap index and offset from the thread given), `results()` its values after the loop."""
    step: Callable[[str, str, str], None]
    results: Callable[[], list[LoopResult]]


def _filtered_term(w: KernelWriter, name: str, width: int, first: Expr) -> _ScanTerm:
    """The taps' weighted sum of the window (a filter), as `fir_filter` computes it alone."""
    table = _coefficients(w, ("taps", "kernel_w", "weights", "coef"), width)
    acc = w.declare(w.fresh("acc"), ZERO, width * w.arg(name).high, None)

    def step(v: str, tap: str, offset: str) -> None:
        w.emit(f"{acc.src} += {table}[{tap}] * {v}")
    w.feature("windowed filter (taps)")
    return _ScanTerm(step, lambda: [LoopResult(acc, "filtered")])


def _signed_sum_term(w: KernelWriter, name: str, width: int, first: Expr) -> _ScanTerm:
    """The sum of the window's positive (or negative) elements, as `positive_sum` computes it alone
    (where the sum is one of several, a branch rather than a `continue`, which would skip the others)."""
    positive = w.rng.random() < 0.6
    acc = w.declare(w.fresh("pos_sum" if positive else "neg_sum"), ZERO, width * w.arg(name).high, 10)
    test = w.rng.choice([">", ">="] if positive else ["<", "<="])

    def step(v: str, tap: str, offset: str) -> None:
        with w.block(f"if {v} {test} 0.0:"):
            w.emit(f"{acc.src} += {v}")

    def results() -> list[LoopResult]:
        w.note_varying(acc.src, first.src)
        return [LoopResult(acc, "pos_sum_out" if positive else "neg_sum_out")]
    w.feature("sum of the positive elements" if positive else "sum of the negative elements")
    return _ScanTerm(step, results)


def _arg_extreme_term(w: KernelWriter, name: str, width: int, first: Expr) -> _ScanTerm:
    """The window's largest (or smallest) element, and its offset from the thread now and then, as
    `running_max` computes them alone over a centred window."""
    op, with_arg = w.rng.choice([">", "<"]), w.rng.random() < 0.6
    best = w.declare(w.fresh("best"), first, first.mag, first.q)
    arg = w.declare(w.fresh("arg"), Expr("0", "int32", 0.0, 0, lit=True), float(width), 0) if with_arg else None

    def step(v: str, tap: str, offset: str) -> None:
        with w.block(f"if {v} {op} {best.src}:"):
            w.emit(f"{best.src} = {v}")
            if arg is not None:
                w.emit(f"{arg.src} = {offset}")

    def results() -> list[LoopResult]:
        kind = "max" if op == ">" else "min"
        w.note_varying(best.src, first.src)
        if arg is None:
            return [LoopResult(best, f"window_{kind}", bounded=True)]
        w.note_varying(arg.src, first.src)
        return [LoopResult(best, f"window_{kind}", bounded=True), LoopResult(arg, f"arg{kind}", state=True)]
    w.feature("window centred on the thread")
    w.feature("the window's " + ("largest" if op == ">" else "smallest") + " element"
              + (" and its offset" if with_arg else ""))
    return _ScanTerm(step, results)


_FUSED_TERMS: dict[str, Callable[[KernelWriter, str, int, Expr], _ScanTerm]] = {
    "filtered": _filtered_term, "signed sum": _signed_sum_term, "arg extreme": _arg_extreme_term}


def breadth(w: KernelWriter) -> random.Random:
    """Session 47's further forms of the searches and moving averages: a stream of their own per kernel,
    so a kernel whose draws there keep the earlier form draws exactly what it drew."""
    return random.Random(w.seed ^ 0xC7F4)


def first_above(w: KernelWriter, loads: list[str], window: SharedWindow | None = None) -> list[LoopResult]:
    """The offset of the first element ahead that exceeds a threshold (a search that stops: `break`);
    the window's width where none does. Drawn aside (session 47): the first element ahead greater than
    the thread's own (the next greater element), and the value found stored beside its offset."""
    name, width = w.rng.choice(loads), _width(w, window, [4, 6, 8])
    bound = _bound(w, ["max_steps", "horizon", "window"], width) if window is None else str(width)
    op = w.rng.choice([">", "<"])
    t = fmt_float(w.rng.choice([0.5, 1.0]) * (1 if op == ">" else -1))
    form = breadth(w).choices(["threshold", "next", "value"], weights=[0.5, 0.25, 0.25])[0]
    # session 52, from a stream of its own: the search runs back over the window behind the thread
    # (how long since the signal last crossed the threshold)
    back = form == "threshold" and takes_variant(w.seed, 0x5EA4, 0.35)
    if form == "next":  # compared with the thread's own element, from the one after it
        own = w.load(name)
        t = own.src
    # where no element qualifies, the loop's bound: the literal, or the parameter that holds it
    found = w.declare(w.fresh("first"), Expr(bound, "int32", float(width), 0, lit=bound.isdigit()), float(width), 0)
    value = w.declare(w.fresh("found_value"), ZERO, w.arg(name).high, None) if form == "value" else None
    with w.block(f"for k in range({'1, ' if form == 'next' else ''}{bound}):"):
        element = _at(w, name, f"wp.max({_own(w)} - k, 0)") if back else \
            _at(w, name, f"wp.min({_own(w)} + k, {_extent(w, name)} - 1)")
        if value is not None:
            x = _temp(w, "x")
            w.emit(f"{x} = {element}")
            element = x
        with w.block(f"if {element} {op} {t}:"):
            w.emit(f"{found.src} = k")
            if value is not None:
                w.emit(f"{value.src} = {element}")
            w.emit("break")
    w.note_varying(found.src, w.load(name).src)
    w.feature("search (break)")
    if back:
        w.feature("searched back over the window behind")
        return [LoopResult(found, "steps_back", state=True)]
    if form == "next":
        w.feature("the next element ahead " + ("greater than" if op == ">" else "less than") + " the thread's own")
        return [LoopResult(found, "next_offset", state=True)]
    if value is not None:
        w.note_varying(value.src, w.load(name).src)
        w.feature("the value found beside its offset")
        return [LoopResult(found, "first_index", state=True), LoopResult(value, "first_value", state=True)]
    return [LoopResult(found, "first_index", state=True)]


def any_above(w: KernelWriter, loads: list[str], window: SharedWindow | None = None) -> list[LoopResult]:
    """Whether any element of the window ahead crosses a threshold: a flag set in the loop, which is
    left at the first hit (`break`), as an early-out test is written. Warp lets a dynamic loop change
    a local only if it was declared as a value (`hit = bool(False)`), not as the constant `False`.
    The flag becomes a 0/1 mark, or keeps the thread's element where the window crosses (0 elsewhere)."""
    name, width = w.rng.choice(loads), _width(w, window, [4, 6, 8])
    bound = _bound(w, ["max_steps", "horizon", "window"], width) if window is None else str(width)
    op = w.rng.choice([">", "<"])
    t = fmt_float(w.rng.choice([0.5, 0.75]) * (1 if op == ">" else -1))
    flag = w.fresh(w.rng.choice(["hit", "found", "crossed"]))
    w.emit(f"{flag} = bool(False)")
    with w.block(f"for k in range({bound}):"):
        with w.block(f"if {_at(w, name, f'wp.min({_own(w)} + k, {_extent(w, name)} - 1)')} {op} {t}:"):
            w.emit(f"{flag} = True")
            w.emit("break")
    w.note_varying(flag, w.load(name).src)
    w.feature("flag set in a loop (bool)")
    if w.rng.random() < 0.5:
        return [LoopResult(Expr(f"1 if {flag} else 0", "int32", 1.0, 0, atom=False), "crossing")]
    own = w.load(name)
    return [LoopResult(Expr(f"wp.where({flag}, {own.src}, 0.0)", "float32", own.mag, own.q, atom=False), "kept")]


def positive_sum(w: KernelWriter, loads: list[str], window: SharedWindow | None = None) -> list[LoopResult]:
    """The sum of a window's positive elements: negative ones skipped with `continue`."""
    name, width = w.rng.choice(loads), _width(w, window, [3, 5, 7])
    positive = w.rng.random() < 0.6
    v = _temp(w, "v")
    acc = w.declare(w.fresh("pos_sum" if positive else "neg_sum"), ZERO, width * w.arg(name).high, 10)
    count = w.declare(w.fresh("kept"), Expr("0", "int32", 0.0, 0, lit=True), float(width), 0) \
        if breadth(w).random() < 0.35 else None
    with w.block(f"for k in range({width}):"):
        w.emit(f"{v} = {_at(w, name, _window_index(w, f'k - {width // 2}', name))}")
        with w.block(f"if {v} {w.rng.choice(['<=', '<'])} 0.0:" if positive else f"if {v} {w.rng.choice(['>=', '>'])} 0.0:"):
            w.emit("continue")
        w.emit(f"{acc.src} += {v}" if w.rng.random() < 0.5 else f"{acc.src} = {acc.src} + {v}")
        if count is not None:
            w.emit(f"{count.src} += 1")
    w.note_varying(acc.src, w.load(name).src)
    w.feature("skip (continue)")
    if count is not None:  # session 47: the mean of the elements kept
        w.note_varying(count.src, w.load(name).src)
        w.feature("the mean of the elements kept")
        return [LoopResult(Expr(f"{acc.src} / float(wp.max({count.src}, 1))", "float32", w.arg(name).high, None,
                                atom=False), "pos_mean" if positive else "neg_mean")]
    return [LoopResult(acc, "pos_sum_out" if positive else "neg_sum_out")]


def bisection_sqrt(w: KernelWriter, loads: list[str]) -> list[LoopResult]:
    """A square root by bisection in a counted `while` loop: the bracket halves toward sqrt(|x|). The
    midpoints stay on a power-of-two grid, so `mid * mid > v` is exact in float32."""
    x = w.load(w.rng.choice(loads))
    v = w.assign(Expr(f"wp.abs({x.src})", "float32", x.mag, 10), prefix="v")
    cube = w.rng.random() < 0.3  # the cube root: the same bracket, compared by mid^3
    steps = w.rng.choice([6, 8] if cube else [6, 8, 10])
    lo = w.declare(w.fresh("lo"), ZERO, 2.0, steps + 1)
    hi = w.declare(w.fresh("hi"), Expr("2.0", "float32", 2.0, 0, lit=True), 2.0, steps + 1)
    # until a step count, or until the bracket is narrower than a tolerance (2 / 2^steps: the same
    # steps, the widths being exact powers of two)
    counted = w.rng.random() < 0.5
    if counted:
        it = w.declare(w.fresh("it"), Expr("0", "int32", 0.0, 0, lit=True), float(steps), 0)
        condition = f"{it.src} < {_iterations(w, [steps])}"
    else:
        condition = f"{hi.src} - {lo.src} > {fmt_float(2.0 / 2 ** steps)}"
        w.feature("bracket tolerance")
    mid = _temp(w, "mid")
    with w.block(f"while {condition}:"):
        w.emit(f"{mid} = 0.5 * ({lo.src} + {hi.src})")
        with w.block(f"if {mid} * {mid}{f' * {mid}' if cube else ''} > {v.src}:"):
            w.emit(f"{hi.src} = {mid}")
        with w.block("else:"):
            w.emit(f"{lo.src} = {mid}")
        if counted:
            w.emit(f"{it.src} += 1")
    for name in (lo.src, hi.src):
        w.note_varying(name, v.src)
    w.feature("while")
    w.feature("bisection (cube root)" if cube else "bisection (square root)")
    return [LoopResult(Expr(f"0.5 * ({lo.src} + {hi.src})", "float32", 2.0, None, atom=False), "root_out", state=True)]


def recurrent_window(w: KernelWriter, loads: list[str], window: SharedWindow | None = None) -> list[LoopResult]:
    """A recurrent state run over the thread's history, oldest first: h = tanh(decay * h + x)."""
    name, steps = w.rng.choice(loads), _width(w, window, [3, 4, 6, 8])
    ema = w.rng.random() < 0.4
    decay = _coefficient(w, [0.5, 0.25, 0.75], ["alpha", "smoothing"] if ema else ["decay", "leak"])
    gain = _coefficient(w, [0.5, 1.5, 2.0], ["w_in", "input_gain"]) if not ema and w.rng.random() < 0.4 else None
    j = _temp(w, "j")
    # session 47: the average started at the oldest element rather than at zero (no bias toward zero),
    # or an exponentially weighted variance beside it (the deviation from the average before the step)
    form = breadth(w).choices(["zero", "seeded", "variance"], weights=[0.5, 0.25, 0.25])[0] if ema else "zero"
    if form == "seeded":
        oldest = f"wp.clamp({_own(w)} - {steps - 1}, 0, {_extent(w, name)} - 1)"
        h = w.declare(w.fresh("h"), Expr(_at(w, name, oldest), "float32", w.arg(name).high, None, atom=False),
                      w.arg(name).high, None)
        w.feature("started at the oldest element")
    else:
        h = w.declare(w.fresh("h"), ZERO, w.arg(name).high if ema else 1.0, None)
    var = w.declare(w.fresh("var"), ZERO, w.arg(name).high ** 2, None) if form == "variance" else None
    # session 50, from a stream of its own: a tanh cell's leak rate, or 0 for none
    leaky = 0.0 if ema else random.Random(w.seed ^ 0xC7F6).choice(LEAK_RATES)
    with w.block(f"for k in range({'1, ' if form == 'seeded' else ''}{steps}):"):
        w.emit(f"{j} = {_window_index(w, f'k - {steps - 1}', name)}")
        if var is not None:
            d = _temp(w, "d")
            w.emit(f"{d} = {_at(w, name, j)} - {h.src}")
            w.emit(f"{h.src} = {h.src} + {decay} * {d}")
            keep = f"(1.0 - {decay})" if decay.isidentifier() else fmt_float(1.0 - float(decay))  # a literal folded
            w.emit(f"{var.src} = {keep} * ({var.src} + {decay} * {d} * {d})")
        elif ema:
            w.emit(f"{h.src} = {h.src} + {decay} * ({_at(w, name, j)} - {h.src})")
        else:
            # the input weighted too, as a recurrent cell's input weight does
            cell = f"wp.tanh({decay} * {h.src} + {gain} * {_at(w, name, j)})" if gain is not None else \
                f"wp.tanh({decay} * {h.src} + {_at(w, name, j)})"
            if leaky:  # a leaky-integrator (echo-state) cell: the state moves part way to the new one
                w.emit(f"{h.src} = {fmt_float(1.0 - leaky)} * {h.src} + {fmt_float(leaky)} * {cell}")
            else:
                w.emit(f"{h.src} = {cell}")
    if leaky:
        w.feature("leaky integration")
    w.feature("exponential moving average" if ema else "recurrent update (tanh)")
    if var is not None:
        w.note_varying(var.src, w.load(name).src)
        w.feature("exponentially weighted variance")
        return [LoopResult(h, "state", state=True), LoopResult(var, "variance", state=True)]
    return [LoopResult(h, "state", state=True)]


def power_by_squaring(w: KernelWriter, loads: list[str], value: Expr | None = None) -> list[LoopResult]:
    """x^n for an integer n by repeated squaring: the exponent's bits walked in a `while`, the base
    squared each step and multiplied in where the bit is set."""
    x = value or w.load(w.rng.choice(loads))
    n = w.rng.choice([3, 5, 6, 7])
    exponent = w.add_scalar(w.rng.choice(["exponent", "power", "n_pow"]), "int32", n).src \
        if w.rng.random() < 0.6 else str(n)
    w.feature("while")
    w.feature("power by repeated squaring")
    if w.rng.random() < HELPER_SOLVE_SHARE:  # as a `@wp.func` the kernel calls, as a library writes it
        helper = _loop_helper(w, "ipow", "float", ("x: float", "n: int"), "float(1.0)", "x", "n",
                              "result = result * base", "base = base * base")
        return [LoopResult(Expr(f"{helper}({x.src}, {exponent})", "float32", x.mag ** n + 1.0, None), "powered",
                           state=True)]
    base = w.declare(w.fresh("base"), x, x.mag ** 8, None)
    result = w.declare(w.fresh("result"), Expr("1.0", "float32", 1.0, 0, lit=True), x.mag ** n + 1.0, None)
    e = w.declare(w.fresh("e"), Expr(exponent, "int32", float(n), 0, lit=exponent.isdigit()), float(n), 0)
    _square_and_multiply(w, e.src, f"{result.src} = {result.src} * {base.src}", f"{base.src} = {base.src} * {base.src}")
    w.note_varying(result.src, x.src)
    return [LoopResult(result, "powered", state=True)]


# The share of repeated-squaring kernels whose loop is a `@wp.func` the kernel calls.
HELPER_SOLVE_SHARE = 0.4


def _square_and_multiply(w: KernelWriter, e: str, multiply: str, square: str) -> None:
    """The exponent's bits, lowest first: multiply where the bit is set, square every step. The bit and
    the shift as bit operations or as arithmetic (`e % 2 == 1`, `e // 2`), both as people write them."""
    bits = w.rng.random() < 0.6
    with w.block(f"while {e} > 0:"):
        with w.block(f"if ({e} & 1) == 1:" if bits else f"if {e} % 2 == 1:"):
            w.emit(multiply)
        w.emit(square)
        w.emit(f"{e} = {e} >> 1" if bits else f"{e} = {e} // 2")


def _loop_helper(w: KernelWriter, kind: str, returns: str, params: tuple[str, ...], one: str, base: str, exponent: str,
                 multiply: str, square: str) -> str:
    """A `@wp.func` raising `base` to `exponent` by repeated squaring (`multiply`, `square` its two steps,
    over locals `result`, `base` and `e`); its name, with the kernel's suffix while the kernel is drawn."""
    name = f"{kind}_{w.name.split('_')[-1]}"
    bits = w.rng.random() < 0.6
    body = [f"result = {one}", f"base = {base}", f"e = {exponent}", "while e > 0:",
            "    if (e & 1) == 1:" if bits else "    if e % 2 == 1:", f"        {multiply}", f"    {square}",
            "    e = e >> 1" if bits else "    e = e // 2", "return result"]
    w.add_helper(f"@wp.func\ndef {name}({', '.join(params)}) -> {returns}:\n" + "\n".join(f"    {line}" for line in body),
                 name)
    w.feature(f"@wp.func helper ({kind})")
    return name


def modular_power(w: KernelWriter, loads: list[str]) -> list[LoopResult]:
    """b^e mod m by repeated squaring on ints (a hash's or a toy cipher's step): every product reduced
    mod m, so nothing overflows (m < 2^15: a product of two residues fits in 31 bits). Reads int arrays
    of its own."""
    modulus = w.rng.choice([97, 251, 1009, 7919, 32749])
    base_in = w.add_array(w.rng.choice(["base", "msg", "key"]), "int32", "input", low=0, high=modulus - 1, grid_bits=0)
    m = w.add_scalar(w.rng.choice(["modulus", "prime", "m"]), "int32", modulus).src if w.rng.random() < 0.6 \
        else str(modulus)
    if w.rng.random() < 0.5:  # one exponent for all, or one per element
        n = w.rng.choice([5, 17, 65, 255])
        exponent = w.add_scalar(w.rng.choice(["exponent", "power", "e_pub"]), "int32", n).src
        e_mag = float(n)
    else:
        exponent = w.load(w.add_array(w.rng.choice(["exps", "powers"]), "int32", "input", low=0, high=1023,
                                      grid_bits=0)).src
        e_mag = 1023.0
    b = w.load(base_in)
    w.feature("while")
    w.feature("modular power by repeated squaring")
    if w.rng.random() < HELPER_SOLVE_SHARE:
        helper = _loop_helper(w, "powmod", "int", ("b: int", "e_in: int", "m: int"), "int(1)", "b % m", "e_in",
                              "result = (result * base) % m", "base = (base * base) % m")
        return [LoopResult(Expr(f"{helper}({b.src}, {exponent}, {m})", "int32", modulus - 1.0, 0), "residue",
                           state=True)]
    base = w.declare(w.fresh("base"), Expr(f"{b.src} % {m}", "int32", modulus - 1.0, 0, atom=False), modulus - 1.0, 0)
    result = w.declare(w.fresh("result"), Expr("1", "int32", 1.0, 0, lit=True), modulus - 1.0, 0)
    e = w.declare(w.fresh("e"), Expr(exponent, "int32", e_mag, 0), e_mag, 0)
    _square_and_multiply(w, e.src, f"{result.src} = ({result.src} * {base.src}) % {m}",
                         f"{base.src} = ({base.src} * {base.src}) % {m}")
    w.note_varying(result.src, b.src)
    return [LoopResult(result, "residue", state=True)]


def reduced_fraction(w: KernelWriter, loads: list[str]) -> list[LoopResult]:
    """A fraction reduced to lowest terms: Euclid's algorithm for the greatest common divisor in a
    `while` (`a, b = b, a % b` through a temporary), then both terms divided by it. Reads int arrays of
    its own (`loads`, the float inputs, are not read)."""
    signed = w.rng.random() < 0.4  # a numerator of either sign: the divisor from its magnitude
    num = w.add_array(w.rng.choice(["num", "numer", "p"]), "int32", "input", low=-720 if signed else 1, high=720,
                      grid_bits=0)
    den = w.add_array(w.rng.choice(["den", "denom", "q"]), "int32", "input", low=1, high=720, grid_bits=0)
    p, q = w.load(num), w.load(den)
    a = w.declare(w.fresh("a"), Expr(f"wp.abs({p.src})", "int32", 720.0, 0) if signed else p, 720.0, 0)
    b = w.declare(w.fresh("b"), q, 720.0, 0)
    # Euclid's own form: the larger less the smaller until they meet (positive terms only: from a zero
    # numerator the loop would never end)
    if not signed and w.rng.random() < 0.25:
        with w.block(f"while {a.src} != {b.src}:"):
            with w.block(f"if {a.src} > {b.src}:"):
                w.emit(f"{a.src} = {a.src} - {b.src}")
            with w.block("else:"):
                w.emit(f"{b.src} = {b.src} - {a.src}")
        w.feature("by subtraction")
    else:
        t = _temp(w, "t")
        with w.block(f"while {b.src} {w.rng.choice(['!=', '>'])} 0:"):
            w.emit(f"{t} = {b.src}")
            w.emit(f"{b.src} = {a.src} % {b.src}")
            w.emit(f"{a.src} = {t}")
    w.note_varying(a.src, p.src)
    w.feature("while")
    w.feature("greatest common divisor (Euclid)")
    use = w.rng.choices(["gcd", "fraction", "lcm", "coprime"], weights=[0.2, 0.45, 0.2, 0.15])[0]
    if use == "gcd":
        return [LoopResult(a, "gcd_out", state=True)]
    if use == "coprime":  # whether the two share no factor
        w.feature("coprime flag")
        return [LoopResult(Expr(f"1 if {a.src} == 1 else 0", "int32", 1.0, 0, atom=False), "coprime", state=True)]
    if use == "lcm":  # the least common multiple (a common period), divided first so it stays small
        w.feature("least common multiple")
        return [LoopResult(Expr(f"{p.src} // {a.src} * {q.src}", "int32", 720.0 * 720.0, 0, atom=False), "lcm_out",
                           state=True)]
    w.feature("fraction reduced to lowest terms")
    return [LoopResult(Expr(f"{p.src} // {a.src}", "int32", 720.0, 0, atom=False), "num_out", state=True),
            LoopResult(Expr(f"{q.src} // {a.src}", "int32", 720.0, 0, atom=False), "den_out", state=True)]


LOOP_FORMS: dict[str, Callable[[KernelWriter, list[str]], list[LoopResult]]] = {
    "windowed filter": fir_filter,
    "Horner loop": horner_loop,
    "exp series": exp_series,
    "Newton square root": newton_sqrt,
    "Kepler iteration": kepler,
    "running maximum": running_max,
    "count over a window": count_above,
    "search with break": first_above,
    "flag with break": any_above,
    "sum with continue": positive_sum,
    "bisection while": bisection_sqrt,
    "recurrent window": recurrent_window,
    "peak to peak": peak_to_peak,
    "statistics in one pass": window_statistics,
    "power by squaring": power_by_squaring,
    "reduced fraction": reduced_fraction,
    "modular power": modular_power,
}


# What a control-flow kernel is for: the statistics of the thread's window (one to three scans of one
# signal: its filtered value, its count above a level, its running maximum), or one iterative solve on
# the thread's value. A cube root by bisection beside Kepler's equation, or a solve beside a window's
# positive sum, is two kernels fused: the generator's tell, not what a person writes.
ITERATION_FORMS = ("Horner loop", "exp series", "Newton square root", "Kepler iteration", "bisection while",
                   "power by squaring", "reduced fraction", "modular power")
# The solves that may run on a window's statistic, and the window forms whose first result each takes:
# a moving average or a recurrent state (within the inputs' range) for the series; a running extreme too
# (an envelope) for the polynomial (a response curve) and the power; a filtered value too for a root.
# Kepler's equation takes a mean anomaly, no statistic of a window.
CHAIN_SOURCES = {"Horner loop": ("recurrent window", "running maximum"), "exp series": ("recurrent window",),
                 "power by squaring": ("recurrent window", "running maximum"),
                 "Newton square root": ("recurrent window", "running maximum", "windowed filter")}
# The share of those solves that run on a window's statistic.
CHAIN_SHARE = 0.6
# The share of control-flow kernels that compute window statistics (the rest: one solve).
WINDOW_SHARE = 0.75
# Forms that read int arrays of their own: the kernel takes no float inputs for them.
OWN_INPUT_FORMS = ("reduced fraction", "modular power")
WINDOW_FORMS = tuple(form for form in LOOP_FORMS if form not in ITERATION_FORMS)


# Window forms that compute one thing twice in one kernel: a count past a threshold beside the first
# element past one and a flag of any (one test thrice, at three thresholds), a running maximum beside a
# window's extremes, a one-pass count or extremes beside a scan that gathers one of them alone.
SAME_STATISTIC = (("count over a window", "search with break", "flag with break", "statistics in one pass"),
                  ("running maximum", "peak to peak", "statistics in one pass"))


def _computes_again(form: str, taken: str) -> bool:
    """Whether `form` beside `taken` computes one statistic twice (or is `taken`)."""
    return form == taken or any(form in group and taken in group for group in SAME_STATISTIC)


# Forms whose results are all float values: what other categories compute on.
FLOAT_LOOP_FORMS = ("windowed filter", "Horner loop", "exp series", "Newton square root", "Kepler iteration",
                    "sum with continue", "recurrent window")


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    if sparse.chooses_sparse(seed):
        return sparse.generate(rng, name, seed)
    first = rng.choice(WINDOW_FORMS) if rng.random() < WINDOW_SHARE else rng.choice(ITERATION_FORMS)
    chained = first in CHAIN_SOURCES and takes_variant(seed, 0x5E45, CHAIN_SHARE)
    # a solve works on the thread's own element and a window along a row: on a grid of any dimension
    w = KernelWriter(rng, name, "control_flow", seed, pick_dim(rng, nd_prob=0.3))
    loads = add_inputs(w, "float32", rng.randint(1, 3)) if first not in OWN_INPUT_FORMS else []
    if len(w.dim) == 1 and rng.random() < 0.15:
        early_return(w)
    if first in ITERATION_FORMS:
        results = solve_on_window(w, loads, first) if chained else LOOP_FORMS[first](w, loads)
        store_results(w, results)
        return w.finish("Control-flow kernel")
    forms = [first]
    for _ in range(rng.choice([0, 1, 1, 1, 2, 2, 2])):
        free = [f for f in WINDOW_FORMS if not any(_computes_again(f, taken) for taken in forms)]
        if not free:
            break
        forms.append(rng.choice(free))
    window = SharedWindow(rng.choice(SHARED_WIDTHS)) if len(forms) > 1 else None
    one_pass = [f for f in forms if f in ONE_PASS_FORMS and (f != "running maximum" or _centred_extremum(seed))]
    for form in forms:
        # A later loop reads only inputs an earlier one read: the loops of a kernel work on one
        # signal (its filtered value, its running maximum), not on one input each.
        read = w.inputs_read(loads)
        if len(one_pass) < 2 or form not in one_pass:
            store_results(w, LOOP_FORMS[form](w, read if read else loads, window=window))
        elif form == one_pass[0]:  # the kernel's scans of its centred window, in one loop
            fused = tuple(s for f in one_pass for s in ONE_PASS_FORMS[f])
            store_results(w, window_statistics(w, read if read else loads, window, fused,
                                               own="statistics in one pass" in one_pass))
    return w.finish("Control-flow kernel")


def store_results(w: KernelWriter, results: list[LoopResult]) -> None:
    for result in results:
        out = w.add_array(result.hint, result.value.type, "output")
        w.store(out, result.value, state=result.state, bounded=result.bounded)


def solve_on_window(w: KernelWriter, loads: list[str], solve: str) -> list[LoopResult]:
    """A window statistic, then the solve `solve` on it (a polynomial, a root, a power of the smoothed
    signal): one computation in two steps, both results stored."""
    window = w.rng.choice(CHAIN_SOURCES[solve])
    scanned = LOOP_FORMS[window](w, loads)
    first = scanned[0].value
    value = first if WORD.fullmatch(first.src) else w.assign(first, prefix=scanned[0].hint.split("_")[0])
    scanned[0] = scanned[0]._replace(value=value)
    w.feature("a solve on a window's statistic")
    return scanned + LOOP_FORMS[solve](w, loads, value=value)
