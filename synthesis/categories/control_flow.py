"""Control flow: the loops people write (LOOP_FORMS), with constant or argument bounds, while,
break/continue, and a bool flag a loop sets (`hit = bool(False)`, Warp's spelling of a mutable flag)."""
from __future__ import annotations

import random
from typing import Callable, NamedTuple

from synthesis.categories import sparse
from synthesis.categories.common import add_inputs, early_return, pick_dim, takes_variant
from synthesis.exprgen import Expr, KernelWriter, fmt_float
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


def _window_index(w: KernelWriter, offset: str, array: str) -> str:
    """`wp.clamp(tid + offset, 0, a.shape[0] - 1)`: an element near the thread's own, clamped to the
    array (to its own extent, as kernels that run on any size write it, not to a literal)."""
    return f"wp.clamp({w.tid_names[0]} + {offset}, 0, {array}.shape[0] - 1)"


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
        if not w.is_argument(name):
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


def fir_filter(w: KernelWriter, loads: list[str]) -> list[LoopResult]:
    """A filter: taps weight the elements of a window centred on the thread's own (a convolution)."""
    name, taps = w.rng.choice(loads), w.rng.choice([3, 5, 7, 9])
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
                w.emit(f"{j} = {w.tid_names[0]} + k - {r}")
                with w.block(f"if {j} >= 0 and {j} < {name}.shape[0]:"):
                    w.emit(f"{acc.src} {update} {table}[k] * {name}[{j}]")
            else:
                w.emit(f"{j} = {_window_index(w, f'k - {r}', name)}")
                w.emit(f"{acc.src} {update} {table}[k] * {name}[{j}]")
    else:  # over the offsets
        with w.block(f"for k in range(-{r}, {r + 1}):"):
            if zero_padded:
                j = _temp(w, "j")
                w.emit(f"{j} = {w.tid_names[0]} + k")
                with w.block(f"if {j} >= 0 and {j} < {name}.shape[0]:"):
                    w.emit(f"{acc.src} {update} {table}[k + {r}] * {name}[{j}]")
            else:
                w.emit(f"{acc.src} {update} {table}[k + {r}] * {name}[{_window_index(w, 'k', name)}]")
    w.feature("windowed filter (taps)")
    if zero_padded:
        w.feature("zero outside the array")
    return [LoopResult(acc, "filtered")]


def horner_loop(w: KernelWriter, loads: list[str]) -> list[LoopResult]:
    """A polynomial with coefficients from a table, evaluated at the thread's value by Horner's rule."""
    x = w.load(w.rng.choice(loads))
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
    header = f"for k in range({terms}):" if order == "highest first" else f"for k in range({last}, -1, -1):"
    if not terms.isdigit():
        w.feature("degree from the table's length (.shape)")
    with w.block(header):
        if slope:
            w.emit(f"{dy.src} = {dy.src} * {x.src} + {y.src}")
        w.emit(f"{y.src} = {y.src} * {x.src} + {table}[k]")
    if order == "lowest first":
        w.feature("coefficients lowest power first")
    w.feature("polynomial from a coefficient table (Horner loop)" + (", with its derivative" if slope else ""))
    return [LoopResult(y, "poly_out")] + ([LoopResult(dy, "slope_out")] if slope else [])


def exp_series(w: KernelWriter, loads: list[str]) -> list[LoopResult]:
    """The exponential's Taylor series, term by term: each term the last times x / k."""
    x = w.load(w.rng.choice(loads))
    terms = w.rng.choice([6, 8, 10, 12])
    bound = _bound(w, ["n_terms", "terms", "order"], terms)
    if w.rng.random() < 0.35:  # the sine's series: odd powers, alternating, term *= -x^2 / ((2k)(2k + 1))
        term = w.declare(w.fresh("term"), x, 8.0, None)
        total = w.declare(w.fresh("total"), x, 8.0, None)
        with w.block(f"for k in range(1, {bound}):"):
            w.emit(f"{term.src} = -{term.src} * {x.src} * {x.src} / float((2 * k) * (2 * k + 1))")
            w.emit(f"{total.src} += {term.src}")
        w.feature("Taylor series (sin)")
        return [LoopResult(total, "series")]
    term = w.declare(w.fresh("term"), Expr("1.0", "float32", 1.0, 0, lit=True), 8.0, None)
    total = w.declare(w.fresh("total"), Expr("1.0", "float32", 1.0, 0, lit=True), 8.0, None)
    if w.rng.random() < 0.5:
        with w.block(f"for k in range(1, {bound}):"):
            w.emit(f"{term.src} = {term.src} * {x.src} / float(k)")
            w.emit(f"{total.src} += {term.src}")
    else:
        with w.block(f"for k in range({bound}):"):
            w.emit(f"{term.src} *= {x.src} / float(k + 1)")
            w.emit(f"{total.src} = {total.src} + {term.src}")
    w.feature("Taylor series (exp)")
    return [LoopResult(total, "series")]


def newton_sqrt(w: KernelWriter, loads: list[str]) -> list[LoopResult]:
    """Newton's iteration for a square root, `y = 0.5 * (y + s / y)`, from y = s on a positive value."""
    first = w.rng.choice(loads)
    x = w.load(first)
    form = w.rng.choice(["plus_one", "abs", "norm"] if len(loads) > 1 else ["plus_one", "abs"])
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
    with w.block(f"for it in range({_iterations(w, [4, 5, 6])}):"):
        w.emit(f"{y.src} = 0.5 * ({y.src} + {s.src} / {y.src})")
    w.feature("Newton iteration (square root)")
    return [LoopResult(y, "root_out", state=True)]


def kepler(w: KernelWriter, loads: list[str]) -> list[LoopResult]:
    """Kepler's equation E = M + e sin E solved by fixed-point iteration (e < 1: a contraction)."""
    m = w.load(w.rng.choice(loads))
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
    return [LoopResult(big_e, "anomaly", state=True)]


CENTRED_WINDOW_SHARE = 0.4  # of running extremes: the window centred on the thread, not ahead of it
LEAK_RATES = (0.0, 0.0, 0.25, 0.5)  # a tanh cell's, drawn evenly: 0 for none


def running_max(w: KernelWriter, loads: list[str]) -> list[LoopResult]:
    """The largest element of the window ahead of the thread, and where it is (an arg-max)."""
    name, width = w.rng.choice(loads), w.rng.choice([4, 5, 8])
    first = w.load(name)
    op, with_arg = w.rng.choice([">", "<"]), w.rng.random() < 0.6
    # session 50, from a stream of its own: a window centred on the thread (a max or min filter, as
    # grey-scale dilation and erosion are written), its offsets -h..h, the arg an offset from the thread
    centred = random.Random(w.seed ^ 0xC7F5).random() < CENTRED_WINDOW_SHARE
    half = width // 2 - (width == 8)  # 2, 2, 3: windows of 5, 5, 7
    v = _temp(w, "v")
    best = w.declare(w.fresh("best"), first, first.mag, first.q)
    arg = w.declare(w.fresh("arg"), Expr("0", "int32", 0.0, 0, lit=True), float(width), 0) if with_arg else None
    if centred:
        w.feature("window centred on the thread")
    with w.block(f"for k in range(-{half}, {half + 1}):" if centred else f"for k in range(1, {width}):"):
        w.emit(f"{v} = {name}[{_window_index(w, 'k', name)}]" if centred else
               f"{v} = {name}[wp.min({w.tid_names[0]} + k, {name}.shape[0] - 1)]")
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


def count_above(w: KernelWriter, loads: list[str]) -> list[LoopResult]:
    """How many elements of a centred window exceed a threshold."""
    name, width = w.rng.choice(loads), w.rng.choice([3, 5, 7])
    spec = w.arg(name)
    t = w.rng.choice([-0.5, 0.0, 0.25, 0.5, 1.0]) * (spec.high - spec.low) / 4
    t = _coefficient(w, [t], ["threshold", "level", "cutoff"]) if t != 0.0 else fmt_float(t)
    count = w.declare(w.fresh("count"), Expr("0", "int32", 0.0, 0, lit=True), float(width), 0)
    op = w.rng.choice(['>', '>=', '<'])
    with w.block(f"for k in range({width}):"):
        element = f"{name}[{_window_index(w, f'k - {width // 2}', name)}]"
        if w.rng.random() < 0.3:  # counted without a branch
            w.emit(f"{count.src} += wp.where({element} {op} {t}, 1, 0)")
        else:
            with w.block(f"if {element} {op} {t}:"):
                w.emit(f"{count.src} += 1")
    w.note_varying(count.src, w.load(name).src)
    w.feature("count over a window")
    return [LoopResult(count, "count_out")]


def breadth(w: KernelWriter) -> random.Random:
    """Session 47's further forms of the searches and moving averages: a stream of their own per kernel,
    so a kernel whose draws there keep the earlier form draws exactly what it drew."""
    return random.Random(w.seed ^ 0xC7F4)


def first_above(w: KernelWriter, loads: list[str]) -> list[LoopResult]:
    """The offset of the first element ahead that exceeds a threshold (a search that stops: `break`);
    the window's width where none does. Drawn aside (session 47): the first element ahead greater than
    the thread's own (the next greater element), and the value found stored beside its offset."""
    name, width = w.rng.choice(loads), w.rng.choice([4, 6, 8])
    bound = _bound(w, ["max_steps", "horizon", "window"], width)
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
        element = f"{name}[wp.max({w.tid_names[0]} - k, 0)]" if back else \
            f"{name}[wp.min({w.tid_names[0]} + k, {name}.shape[0] - 1)]"
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


def any_above(w: KernelWriter, loads: list[str]) -> list[LoopResult]:
    """Whether any element of the window ahead crosses a threshold: a flag set in the loop, which is
    left at the first hit (`break`), as an early-out test is written. Warp lets a dynamic loop change
    a local only if it was declared as a value (`hit = bool(False)`), not as the constant `False`.
    The flag becomes a 0/1 mark, or keeps the thread's element where the window crosses (0 elsewhere)."""
    name, width = w.rng.choice(loads), w.rng.choice([4, 6, 8])
    bound = _bound(w, ["max_steps", "horizon", "window"], width)
    op = w.rng.choice([">", "<"])
    t = fmt_float(w.rng.choice([0.5, 0.75]) * (1 if op == ">" else -1))
    flag = w.fresh(w.rng.choice(["hit", "found", "crossed"]))
    w.emit(f"{flag} = bool(False)")
    with w.block(f"for k in range({bound}):"):
        with w.block(f"if {name}[wp.min({w.tid_names[0]} + k, {name}.shape[0] - 1)] {op} {t}:"):
            w.emit(f"{flag} = True")
            w.emit("break")
    w.note_varying(flag, w.load(name).src)
    w.feature("flag set in a loop (bool)")
    if w.rng.random() < 0.5:
        return [LoopResult(Expr(f"1 if {flag} else 0", "int32", 1.0, 0, atom=False), "crossing")]
    own = w.load(name)
    return [LoopResult(Expr(f"wp.where({flag}, {own.src}, 0.0)", "float32", own.mag, own.q, atom=False), "kept")]


def positive_sum(w: KernelWriter, loads: list[str]) -> list[LoopResult]:
    """The sum of a window's positive elements: negative ones skipped with `continue`."""
    name, width = w.rng.choice(loads), w.rng.choice([3, 5, 7])
    positive = w.rng.random() < 0.6
    v = _temp(w, "v")
    acc = w.declare(w.fresh("pos_sum" if positive else "neg_sum"), ZERO, width * w.arg(name).high, 10)
    count = w.declare(w.fresh("kept"), Expr("0", "int32", 0.0, 0, lit=True), float(width), 0) \
        if breadth(w).random() < 0.35 else None
    with w.block(f"for k in range({width}):"):
        w.emit(f"{v} = {name}[{_window_index(w, f'k - {width // 2}', name)}]")
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


def recurrent_window(w: KernelWriter, loads: list[str]) -> list[LoopResult]:
    """A recurrent state run over the thread's history, oldest first: h = tanh(decay * h + x)."""
    name, steps = w.rng.choice(loads), w.rng.choice([3, 4, 6, 8])
    ema = w.rng.random() < 0.4
    decay = _coefficient(w, [0.5, 0.25, 0.75], ["alpha", "smoothing"] if ema else ["decay", "leak"])
    gain = _coefficient(w, [0.5, 1.5, 2.0], ["w_in", "input_gain"]) if not ema and w.rng.random() < 0.4 else None
    j = _temp(w, "j")
    # session 47: the average started at the oldest element rather than at zero (no bias toward zero),
    # or an exponentially weighted variance beside it (the deviation from the average before the step)
    form = breadth(w).choices(["zero", "seeded", "variance"], weights=[0.5, 0.25, 0.25])[0] if ema else "zero"
    if form == "seeded":
        oldest = f"wp.clamp({w.tid_names[0]} - {steps - 1}, 0, {name}.shape[0] - 1)"
        h = w.declare(w.fresh("h"), Expr(f"{name}[{oldest}]", "float32", w.arg(name).high, None, atom=False),
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
            w.emit(f"{d} = {name}[{j}] - {h.src}")
            w.emit(f"{h.src} = {h.src} + {decay} * {d}")
            keep = f"(1.0 - {decay})" if decay.isidentifier() else fmt_float(1.0 - float(decay))  # a literal folded
            w.emit(f"{var.src} = {keep} * ({var.src} + {decay} * {d} * {d})")
        elif ema:
            w.emit(f"{h.src} = {h.src} + {decay} * ({name}[{j}] - {h.src})")
        else:
            # the input weighted too, as a recurrent cell's input weight does
            cell = f"wp.tanh({decay} * {h.src} + {gain} * {name}[{j}])" if gain is not None else \
                f"wp.tanh({decay} * {h.src} + {name}[{j}])"
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
}


# Forms whose results are all float values: what other categories compute on.
FLOAT_LOOP_FORMS = ("windowed filter", "Horner loop", "exp series", "Newton square root", "Kepler iteration",
                    "sum with continue", "recurrent window")


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    if sparse.chooses_sparse(seed):
        return sparse.generate(rng, name, seed)
    w = KernelWriter(rng, name, "control_flow", seed, pick_dim(rng))
    loads = add_inputs(w, "float32", rng.randint(1, 3))
    if rng.random() < 0.15:
        early_return(w)
    for form in rng.sample(list(LOOP_FORMS), rng.choice([1, 2, 2, 3, 3])):
        # A later loop reads only inputs an earlier one read: the loops of a kernel work on one
        # signal (its filtered value, its running maximum), not on one input each.
        read = w.inputs_read(loads)
        for result in LOOP_FORMS[form](w, read if read else loads):
            out = w.add_array(result.hint, result.value.type, "output")
            w.store(out, result.value, state=result.state, bounded=result.bounded)
    return w.finish("Control-flow kernel")
