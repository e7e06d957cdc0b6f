"""Building blocks that several categories share: launch shapes, inputs, helpers, loops."""
from __future__ import annotations

import random
import re

from synthesis.exprgen import CONST_Q, WORD, Expr, ExprGen, KernelWriter, fmt_float, join_q, reads

INPUT_HINTS = ["a", "b", "x", "y", "src", "vals", "data", "inp", "u", "w", "p", "q"]
OUTPUT_HINTS = ["out", "result", "dst", "res", "y_out", "output"]


def pick_dim(rng: random.Random, nd_prob: float = 0.0) -> tuple[int, ...]:
    if rng.random() < nd_prob:
        if rng.random() < 0.7:
            return (rng.choice([8, 12, 16, 24]), rng.choice([8, 16, 20, 32]))
        return (rng.choice([4, 6, 8]), rng.choice([4, 5, 8]), rng.choice([4, 6, 8]))
    return (rng.choice([64, 100, 128, 256, 500, 1000, 1024]),)


def add_inputs(w: KernelWriter, dtype: str, count: int, low: float = -2.0, high: float = 2.0,
               grid_bits: int = 10) -> list[str]:
    hints = w.rng.sample(INPUT_HINTS, count)
    return [w.add_array(h, dtype, "input", low=low, high=high, grid_bits=grid_bits) for h in hints]


def add_output(w: KernelWriter, dtype: str = "float32", role: str = "output") -> str:
    return w.add_array(w.rng.choice(OUTPUT_HINTS), dtype, role)


def float_statements(w: KernelWriter, gen: ExprGen, count: int, depth: tuple[int, int] = (1, 3)) -> None:
    for _ in range(count):
        w.assign(gen.float_expr(w.rng.randint(*depth)))


FORMULA_SHARE = 0.7  # kernels whose first outputs are formulas (the rest: expression trees only)


def draw_formulas(gen: ExprGen, draw, count: int) -> list[Expr]:
    """Up to `count` formulas from `draw()` (ExprGen.arith_formula, int_formula or math_formula), their names
    recorded as features; a draw the kernel cannot build (no second named value) is tried again."""
    out: list[Expr] = []
    for _ in range(3 * count):
        if len(out) == count:
            break
        drawn = draw()
        if drawn is not None and drawn[0].src not in {e.src for e in out}:
            out.append(drawn[0])
            gen.w.feature(drawn[1])
    return out


def unread(w: KernelWriter, dtype: str) -> bool:
    """Whether a variable of `dtype` (not a thread index) is still read by nothing."""
    return any(v.src not in w.tid_names and not w.is_read(v.src) for v in w.visible(dtype))


# How a trip folds its value into a loop's accumulator when the value reads nothing that changes from
# trip to trip (`acc += x` on every trip is `n * x`, and `acc += x * float(k)` is x times a number:
# nobody writes either as a loop): weighted by a per-trip coefficient from a table (a filter's taps, a
# quadrature's weights), or folded nonlinearly into a carried value that changes each trip (a fixed-point
# iteration, a recurrent update).
TRIP_SHAPES = ("table", "table", "fixed_point", "recurrent")
KEPLER_ECCENTRICITIES = (0.5, 0.25, 0.125, 0.75)
SMOOTH_DECAYS = (0.5, 0.25, 0.75)
TABLE_HINTS = ("coef", "weights", "taps", "gains", "profile")


def _reads_by_trip(src: str, loop_var: str) -> bool:
    """Whether `src` reads an array element chosen by the loop variable (`rows[tid, c]`, `kern[r, c]`)."""
    return re.search(rf"\[[^\]]*(?<![.\w]){re.escape(loop_var)}\b[^\]]*\]", src) is not None


def trip_update(w: KernelWriter, acc: str, body: Expr, loop_var: str, trips: int, init_mag: float,
                init_q: int | None, last_trip: int | None = None) -> tuple[str, float, int | None]:
    """The statement adding `body` to `acc` on each trip, and the accumulator's bound and grid. A
    `body` that reads no element chosen by the loop variable gets a shape of TRIP_SHAPES, so that
    trips differ. `last_trip`: the loop variable's largest value (the table's last index; default
    trips - 1)."""
    shape = "sum" if _reads_by_trip(body.src, loop_var) else w.rng.choice(TRIP_SHAPES)
    step = body
    if shape == "table":
        length = (trips - 1 if last_trip is None else last_trip) + 1
        table = w.add_array(w.rng.choice(TABLE_HINTS), "float32", "input", shape=(length,), low=-1.0, high=1.0,
                            grid_bits=4)
        if table in w.unused:
            w.unused.remove(table)  # read here, by the trip; never at the thread's own index
        q = None if body.q is None else body.q + 4
        step = Expr(f"{table}[{loop_var}] * {body.operand()}", "float32", body.mag, q, atom=False)
        w.feature("per-trip coefficient table")
    elif shape == "fixed_point":
        # A fixed-point iteration, as Kepler's equation E = M + e sin E is solved: a linear relaxation
        # toward a value every trip sees alike (`acc + 0.5 * (x - acc)`) has a closed form no one loops
        # for. |e cos| <= e < 1: each trip shrinks an error, so rounding differences do not grow.
        e = fmt_float(w.rng.choice(KEPLER_ECCENTRICITIES))
        w.feature("fixed-point iteration (Kepler's equation)")
        # `body` is the left operand of `+`: every float expression binds at least as tightly
        return f"{acc} = {body.src} + {e} * wp.sin({acc})", max(init_mag, body.mag + 1.0), None
    elif shape == "recurrent":
        # A recurrent update h = tanh(decay * h + x): bounded by 1, and a contraction (decay < 1)
        decay = w.rng.choice(SMOOTH_DECAYS)
        w.feature("recurrent update (tanh)")
        added = f"- {body.src[1:]}" if body.src.startswith("-") and WORD.fullmatch(body.src[1:]) else f"+ {body.operand()}"
        return f"{acc} = wp.tanh({fmt_float(decay)} * {acc} {added})", max(init_mag, 1.0), None
    update = f"{acc} += {step.src}" if w.rng.choice([True, False]) else f"{acc} = {acc} + {step.operand()}"
    return update, init_mag + trips * step.mag, join_q(init_q, step.q)


def accumulate_loop(w: KernelWriter, gen: ExprGen, header: str, loop_var: str, trips: int,
                    depth: int = 2, init: Expr | None = None, extra=None, base: Expr | None = None) -> Expr:
    """`acc = init; for ...: acc = acc + expr(loop_var)` (see `trip_update` for a value that does not
    read the loop variable): the accumulator's bound covers all trips."""
    w.note_loop(header)  # what the loop variable takes, known while its body is drawn
    w.scopes.append({loop_var: Expr(loop_var, "int32", float(2 * trips + 2), 0)})
    body = gen.float_expr(depth)
    for _ in range(20):  # `row + row`, a loop summing one literal, or the same sum in every thread: redraw
        same = body.src == base.src if base is not None else body.lit
        uniform = not w.varies(body.src) and (base is None or not w.varies(base.src))
        if not same and not uniform:
            break
        body = gen.float_expr(depth)
    else:
        body = gen.meaningful(body)
    if base is not None:
        sym = w.rng.choice(["*", "+", "-"])
        mag = base.mag * body.mag if sym == "*" else base.mag + body.mag
        q = None if base.q is None or body.q is None else (base.q + body.q if sym == "*" else max(base.q, body.q))
        body = Expr(f"{base.operand()} {sym} {body.operand()}", "float32", mag, q, atom=False)
    w.scopes.pop()
    init = init or Expr("0.0", "float32", 0.0, 0)
    acc = w.fresh("acc")
    last_trip = 2 * (trips - 1) if ", 2):" in header else trips - 1  # range_header's "step" shape
    update, acc_mag, acc_q = trip_update(w, acc, body, loop_var, trips, init.mag, init.q, last_trip)
    var = w.declare(acc, init, acc_mag, acc_q)
    w.note_varying(acc, body.src, base.src if base is not None else "")
    with w.block(header):
        w.scopes[-1][loop_var] = Expr(loop_var, "int32", float(2 * trips + 2), 0)
        if extra:
            # an exit test on the accumulator would fire on the first trip (it starts at zero)
            hidden = [(scope, scope.pop(acc)) for scope in w.scopes if acc in scope]
            extra(var)
            for scope, value in hidden:
                scope[acc] = value
        w.emit(update)
    return var


def trip_test(gen: ExprGen, loop_var: str) -> Expr | None:
    """A condition for a `break`/`continue` that reads the loop variable (a test that reads nothing
    changing from trip to trip holds on every trip or on none), or None when none is drawn."""
    for _ in range(8):
        cond = gen.compare(1)
        if not reads(loop_var).search(cond.src):
            continue
        if re.fullmatch(rf"(?:{loop_var} [!=]= -?\d+|-?\d+ [!=]= {loop_var})", cond.src):
            continue  # `if k != 7: continue` works on one trip: a person writes no loop
        return cond
    return None


def range_header(rng: random.Random, var: str, trips: int, bound_src: str | None = None) -> str:
    """A `for` header that runs exactly `trips` times, in one of several shapes."""
    shape = rng.choice(["plain", "plain", "start", "step", "reverse"])
    bound = bound_src or str(trips)
    if shape == "plain" or bound_src is not None and shape == "reverse":
        return f"for {var} in range({bound}):"
    if shape == "start":
        return f"for {var} in range(0, {bound}):"
    if shape == "step":
        return f"for {var} in range(0, {trips * 2}, 2):"
    return f"for {var} in range({trips - 1}, -1, -1):"


# ---- what real kernels do around the arithmetic ------------------------------------------------
CONSTANT_HINTS = ["SCALE", "DAMPING", "GAIN", "OFFSET", "WEIGHT", "RATE", "BIAS", "FACTOR"]


def add_neighbours(w: KernelWriter, gen: ExprGen, name: str) -> None:
    """Clamped neighbours of `name` along every launch axis become leaves (and are preferred)."""
    for axis in range(len(w.dim)):
        for step in (-1, 1):
            e = w.neighbour(name, axis, step)
            gen.extra.append(e)
            w.unused.append(e.src)


def stencil(w: KernelWriter, gen: ExprGen, name: str) -> Expr:
    """A local computed from the clamped neighbours of `name`: a Laplacian, an average or a gradient."""
    centre = w.load(name)
    if w.arg(name).dtype != "float32":
        raise ValueError("stencils read float arrays")
    axes = range(len(w.dim))
    pairs = [(w.neighbour(name, a, -1), w.neighbour(name, a, 1)) for a in axes]
    kind = w.rng.choice(["laplacian", "average", "gradient"])
    q = centre.q
    if kind == "laplacian":
        terms = " + ".join(f"{lo.src} + {hi.src}" for lo, hi in pairs)
        value = Expr(f"{terms} - {fmt_float(2.0 * len(pairs))} * {centre.src}", "float32", 4 * len(pairs) * centre.mag,
                     None if q is None else q + CONST_Q, atom=False)
    elif kind == "average":
        terms = " + ".join(f"{lo.src} + {hi.src}" for lo, hi in pairs)
        n = 2 * len(pairs)
        exact = n in (2, 4, 8) and q is not None
        value = Expr(f"({terms}) / {fmt_float(float(n))}", "float32", centre.mag, q + 3 if exact else None, atom=False)
    else:
        lo, hi = w.rng.choice(pairs)
        value = Expr(f"0.5 * ({hi.src} - {lo.src})", "float32", centre.mag, None if q is None else q + 1, atom=False)
    w.feature(f"{kind} stencil")
    return w.assign(value, {"laplacian": "lap", "average": "avg", "gradient": "grad"}[kind])


def add_gather(w: KernelWriter, gen: ExprGen, name: str) -> None:
    """An element of `name` chosen through a new index array becomes a (preferred) leaf."""
    idx = w.add_array(w.rng.choice(["idx", "perm", "indices", "src_idx"]), "int32", "index",
                      index_high=w.arg(name).shape[0] - 1)
    e = w.gather(name, idx)
    gen.extra.append(e)
    w.unused.append(e.src)


def add_module_constant(w: KernelWriter) -> Expr:
    """A module-level `wp.constant` the body may read like a literal."""
    value = w.rng.choice([k / 16 for k in range(-32, 33) if k not in (0, 16, -16)])
    c = w.add_constant(w.rng.choice(CONSTANT_HINTS), value)
    c = Expr(c.src, c.type, c.mag, c.q, lit=True)  # a named literal: never computed on alone (`wp.ceil(SCALE)`)
    w.scopes[0][c.src] = c
    w.unused.append(c.src)
    w.feature("wp.constant")
    return c


def early_return(w: KernelWriter) -> Expr:
    """`if tid >= n: return` with n a little below the launch size, as for a padded launch."""
    n = w.dim[0] - w.rng.randint(1, max(1, w.dim[0] // 8))
    bound = w.add_scalar(w.rng.choice(["n", "count", "num"]), "int32", n)
    w.guard_return(f"{w.tid_names[0]} >= {bound.src}")
    return bound


def realistic_extras(w: KernelWriter, gen: ExprGen, loads: list[str]) -> None:
    """Now and then: an early return, a module constant, clamped neighbours, a stencil, a gather."""
    rng = w.rng
    floats = [n for n in loads if w.arg(n).dtype == "float32"]
    if len(w.dim) == 1 and rng.random() < 0.15:
        early_return(w)
    if rng.random() < 0.2:
        add_module_constant(w)
    if floats and rng.random() < 0.3:
        if rng.random() < 0.5:
            stencil(w, gen, rng.choice(floats))
        else:
            add_neighbours(w, gen, rng.choice(floats))
    if floats and len(w.dim) == 1 and rng.random() < 0.2:
        add_gather(w, gen, rng.choice(floats))
