"""Combined: loops, branches, math, vectors, helpers and atomics in one kernel, as one computation.

A kernel is a small pipeline over the thread's data, each stage feeding the next, the way a loss or
a post-processing kernel is written:
1. a source, a computation with a name (two for a blend): a loop form (control_flow's `LOOP_FORMS`: a
   filter, a series, a Newton iteration, a bisection in a `while`), a piecewise form
   (multi_conditional's), a vector quantity (a speed, a distance, a projection on an axis, a kinetic
   energy) or an arithmetic formula;
2. a stage through a `@wp.func` helper with a purpose (`helpers.HELPERS`): a loss of the residual against a
   target (Huber with its branch, pseudo-Huber, log-cosh, Cauchy, squared), a soft clip, a sigmoid
   gate (its logit an input), or a blend of two estimates of one signal (a windowed filter and a
   recurrent average of the same input);
3. often a reduction with atomics: the total into one slot, sums (and counts) per group through an
   index array, or the peak with `atomic_max`;
4. the result stored per thread.
"""
from __future__ import annotations

import random
from typing import Callable

from synthesis.categories import control_flow, multi_conditional
from synthesis.categories.common import add_inputs, add_output, early_return, pick_dim
from synthesis.categories.helpers import LOSSES, call
from synthesis.exprgen import ARITH_OPS, Expr, ExprGen, KernelWriter
from synthesis.spec import KernelSpec


# ---- sources ------------------------------------------------------------------------------------


def _floats(w: KernelWriter, loads: list[str]) -> list[str]:
    return [n for n in loads if w.arg(n).dtype == "float32"]


def _first(w: KernelWriter, results: list) -> Expr:
    """The first result of a form, the one the next stage takes; the form's other results (a slope
    beside a polynomial, a velocity beside a reflected position) are stored as they are."""
    for extra in results[1:]:
        w.store(w.add_array(extra.hint, extra.value.type, "output"), extra.value)
    return results[0].value


def loop_source(w: KernelWriter, gen: ExprGen, loads: list[str], fits: frozenset[str]) -> Expr | None:
    forms = [f for f in control_flow.FLOAT_LOOP_FORMS if f in fits]
    if not forms:
        return None
    form = w.rng.choice(forms)
    return _first(w, control_flow.LOOP_FORMS[form](w, _floats(w, loads)))


def while_source(w: KernelWriter, gen: ExprGen, loads: list[str], fits: frozenset[str]) -> Expr | None:
    if "bisection while" not in fits:
        return None
    return _first(w, control_flow.LOOP_FORMS["bisection while"](w, _floats(w, loads)))


def piecewise_source(w: KernelWriter, gen: ExprGen, loads: list[str], fits: frozenset[str]) -> Expr | None:
    forms = tuple(f for f in multi_conditional.FLOAT_FORMS if f in fits)
    if not forms:
        return None
    built = multi_conditional.draw_pieces(multi_conditional.Draw(w, _floats(w, loads)), 1, forms)
    return _first(w, built[0]) if built else None


VECTOR_QUANTITIES = ("speed", "distance", "projection", "kinetic energy")


def vector_source(w: KernelWriter, gen: ExprGen, loads: list[str], fits: frozenset[str]) -> Expr | None:
    """A scalar quantity of vectors: a speed, a distance between two points, the component along an
    axis, a kinetic energy."""
    rng = w.rng
    kinds = [k for k in VECTOR_QUANTITIES if k in fits]
    if not kinds:
        return None
    kind = rng.choice(kinds)
    if kind in ("speed", "kinetic energy"):
        v = w.load(w.add_array(rng.choice(["vel", "velocity"]), "vec3", "input"))
        if kind == "speed":
            value = Expr(f"wp.length({v.src})", "float32", 1.8, None)
        else:
            m = w.load(w.add_array(rng.choice(["mass", "m"]), "float32", "input", low=0.25, high=2.0, grid_bits=4))
            value = Expr(f"0.5 * {m.src} * wp.dot({v.src}, {v.src})", "float32", 3.0, None, atom=False)
    elif kind == "distance":
        p = w.load(w.add_array(rng.choice(["pos", "points"]), "vec3", "input"))
        q = w.load(w.add_array(rng.choice(["anchor", "target_pos", "goal"]), "vec3", "input"))
        d = w.assign(Expr(f"{p.src} - {q.src}", "vec3", 2.0, None, atom=False), "d")
        value = Expr(f"wp.length({d.src})", "float32", 3.5, None)
    else:
        f = w.load(w.add_array(rng.choice(["force", "flow", "field"]), "vec3", "input"))
        n = w.load(w.add_array(rng.choice(["normal", "axis", "direction"]), "vec3", "input"))
        value = Expr(f"wp.dot({f.src}, wp.normalize({n.src}))", "float32", 1.8, None)
    w.feature(f"vector quantity ({kind})")
    return value


def formula_source(w: KernelWriter, gen: ExprGen, loads: list[str], fits: frozenset[str]) -> Expr | None:
    if "formula" not in fits:
        return None
    drawn = gen.arith_formula()
    if drawn is None:
        return None
    w.feature(drawn[1])
    return drawn[0]


SOURCES: dict[str, Callable[[KernelWriter, ExprGen, list[str], frozenset[str]], Expr | None]] = {
    "loop": loop_source,
    "while": while_source,
    "piecewise": piecewise_source,
    "vector": vector_source,
    "formula": formula_source,
}


# ---- stages -------------------------------------------------------------------------------------


def loss_stage(w: KernelWriter, values: list[Expr]) -> Expr:
    """The loss of the residual against a target input."""
    target = w.load(w.add_array(w.rng.choice(["target", "label", "y_true", "reference"]), "float32", "input",
                                low=-2.0, high=2.0))
    r = w.assign(Expr(f"{values[0].src} - {target.src}", "float32", values[0].mag + 2.0, None, atom=False), "r")
    kind = w.rng.choice(LOSSES)
    w.feature(f"loss against a target ({kind.replace('_', ' ')})")
    return w.assign(call(w, kind, r), "loss")


def clip_stage(w: KernelWriter, values: list[Expr]) -> Expr:
    return w.assign(call(w, "soft_clip", values[0]), "clipped")


def gate_stage(w: KernelWriter, values: list[Expr]) -> Expr:
    """value * sigmoid(gate), the gate's logit an input of its own."""
    gate_in = w.load(w.add_array(w.rng.choice(["gate", "logit", "g"]), "float32", "input", low=-3.0, high=3.0))
    g = w.assign(call(w, "sigmoid", gate_in), "gate")
    w.feature("sigmoid gate")
    return w.assign(Expr(f"{g.src} * {values[0].src}", "float32", values[0].mag, None, atom=False), "gated")


def blend_stage(w: KernelWriter, values: list[Expr]) -> Expr:
    """A blend of two estimates of one signal (`blend_sources`) by a weight: a parameter, or an input
    in [0, 1] per thread."""
    if w.rng.random() < 0.5:
        t = w.add_scalar(w.rng.choice(["alpha", "mix", "t"]), "float32", w.rng.choice([0.25, 0.5, 0.75]))
    else:
        t = w.load(w.add_array(w.rng.choice(["weight", "alpha_in", "t_in"]), "float32", "input", low=0.0, high=1.0))
    w.feature("blend of two computations")
    return w.assign(call(w, "blend", values[0], values[1], t), "blended")


STAGES: dict[str, tuple[Callable[[KernelWriter, list[Expr]], Expr], int]] = {
    "loss": (loss_stage, 1),
    "soft clip": (clip_stage, 1),
    "gate": (gate_stage, 1),
    "blend": (blend_stage, 2),
}

# The computations each stage is written for (loop forms, piecewise forms, vector quantities,
# "formula"), so that the two steps make one computation:
# - a loss compares a prediction or an estimate with its target: a model's output (a formula, a
#   polynomial, an activation), a filtered or forecast signal, a series or an iteration against the
#   value it approximates, a speed, a distance (a spring's rest length) or an energy;
# - a soft clip limits what can grow without bound: a force, a polynomial, an exponential's series,
#   a sum, a filtered signal (a limiter);
# - a sigmoid gate scales a feature by a learned gate (a gated activation): a formula, a polynomial,
#   a filtered or recurrent signal, an activation.
# Never a state a step replaces (a position after walls: the new position would be lost), a limiter's
# or a loss's own output, a mask or a friction force (bounded by its coefficient already).
STAGE_SOURCES: dict[str, frozenset[str]] = {
    "loss": frozenset({"windowed filter", "Horner loop", "exp series", "Newton square root", "Kepler iteration",
                       "recurrent window", "bisection while", "activation", "saturating ramp", "soft clipping knee",
                       "speed", "distance", "projection", "kinetic energy", "formula"}),
    "soft clip": frozenset({"windowed filter", "Horner loop", "exp series", "sum with continue", "recurrent window",
                            "penalty contact", "projection", "formula"}),
    "gate": frozenset({"windowed filter", "Horner loop", "recurrent window", "activation", "saturating ramp",
                       "formula"}),
    "blend": frozenset(),  # two estimates of one signal, drawn by blend_sources
}


def blend_sources(w: KernelWriter, loads: list[str]) -> tuple[list[Expr], list[str]]:
    """What a blend mixes: two estimates of one input signal, its windowed filter and its recurrent
    average (or tanh state) over the thread's history, in either order."""
    signal = w.rng.choice(_floats(w, loads))
    forms = w.rng.sample(["windowed filter", "recurrent window"], 2)
    # a form's other results (a variance beside the average) stored as they are, as `_first` does
    values = [w.assign(_first(w, control_flow.LOOP_FORMS[form](w, [signal])), "s") for form in forms]
    return values, forms


def reduce(w: KernelWriter, value: Expr) -> None:
    """A reduction of the per-thread result with atomics: the total, per-group sums (and counts)
    through an index array, or the peak."""
    rng = w.rng
    kind = rng.choice(["total", "groups", "peak"])
    n = w.dim[0]
    if kind == "total":
        total = w.add_array(rng.choice(["total", "loss_sum", "acc"]), "float32", "output", shape=(1,))
        w.emit(f"wp.atomic_add({total}, 0, {value.src})")
        w.note_bound(total, n * value.mag)
    elif kind == "groups":
        groups = rng.choice([4, 8, 16])
        index = w.add_array(rng.choice(["group", "segment", "batch_id"]), "int32", "index", index_high=groups - 1)
        g = w.load(index)
        sums = w.add_array(rng.choice(["group_sum", "per_group"]), "float32", "output", shape=(groups,))
        w.emit(f"wp.atomic_add({sums}, {g.src}, {value.src})")
        w.note_bound(sums, n * value.mag)
        if rng.random() < 0.5:
            counts = w.add_array("group_count", "int32", "output", shape=(groups,))
            w.emit(f"wp.atomic_add({counts}, {g.src}, 1)")
            w.note_bound(counts, float(n))
    else:
        peak = w.add_array(rng.choice(["peak", "max_value"]), "float32", "output", shape=(1,))
        w.emit(f"wp.atomic_max({peak}, 0, {value.src})")
        w.note_bound(peak, value.mag)
    w.feature(f"atomic reduction ({kind})")


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    w = KernelWriter(rng, name, "combined", seed, pick_dim(rng))
    loads = add_inputs(w, "float32", rng.randint(1, 3))
    gen = ExprGen(w, tuple(rng.sample(ARITH_OPS, 5)), loads=loads)
    if rng.random() < 0.15:
        early_return(w)
    stage = rng.choice(list(STAGES))
    build_stage, needs = STAGES[stage]
    values: list[Expr] = []
    sources: list[str] = []
    if needs == 2:  # a blend mixes two estimates of one signal
        values, sources = blend_sources(w, loads)
    for kind in rng.sample(list(SOURCES), len(SOURCES)):
        if len(values) >= needs:
            break
        value = SOURCES[kind](w, gen, loads, STAGE_SOURCES[stage])
        if value is not None:
            values.append(w.assign(value, "s"))
            sources.append(kind)
    result = build_stage(w, values)
    if rng.random() < 0.6:
        reduce(w, result)
    w.store(add_output(w, holds=f"{stage} stage"), result)
    w.feature(" + ".join(sources) + f" -> {stage}")
    return w.finish("Combined kernel")
