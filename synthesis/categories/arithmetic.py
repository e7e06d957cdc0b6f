"""Arithmetic: the formulas people write by hand with + - * /, min, max, abs on float32 or int32 arrays
(an affine map, a midpoint, a weighted average, an interpolation, a squared, absolute, relative or
normalized difference, a polynomial in Horner form, a clamp, a smoothstep, a soft sign; for integers
a midpoint, a non-negative remainder, a round down to a multiple, a bit field, the low bits), one to
three per kernel, each stored as an output of its own; now and then a `@wp.func` helper with a
purpose (a blend, a squared error, a Huber loss), neighbours, a stencil, a gather, a module constant or
a padded launch around them (`common.realistic_extras`).

A kernel has one purpose (ARITH_THEMES, INT_THEMES; session 56): its formulas and helper come from one
theme (errors against a reference, blends of two values, a response curve, a packed word's fields,
alignment to blocks...), never a relative difference, a smoothstep and a weighted average of unrelated
values side by side."""
from __future__ import annotations

import random
from typing import NamedTuple

from synthesis.categories import bits, quantized
from synthesis.categories.common import (OUTPUT_NAMES, add_gather, add_inputs, add_output, draw_formulas, early_return, pick_dim,
                                         realistic_extras)
from synthesis.categories.helpers import call
from synthesis.exprgen import WORD, ARITH_FORMULAS, BLEND_WEIGHTS, ARITH_OPS, INT_FORMULAS, Expr, ExprGen, KernelWriter, join_q
from synthesis.spec import KernelSpec


class ArithTheme(NamedTuple):
    """What an arithmetic kernel is for: the formulas (exprgen's ARITH_FORMULAS or INT_FORMULAS and
    INT_FORMULAS_MORE) and helpers (synthesis.categories.helpers) that serve it, its weight among the
    themes, and the inputs its formulas need (two where every formula compares or mixes two values)."""
    formulas: tuple[str, ...]
    helpers: tuple[str, ...] = ()
    weight: int = 10
    fewest_inputs: int = 1
    # its formulas are one quantity written different ways (a midpoint is a weighted average is an
    # interpolation): a kernel computes one of them
    one_quantity: bool = False
    # quantities of the theme built whole, weight and all (BLEND_FORMS: a blend eased, faded over a
    # lifetime, a source over its background), not drawn among the formulas
    forms: tuple[str, ...] = ()


# One entry per purpose of a float kernel.
ARITH_THEMES: dict[str, ArithTheme] = {
    "errors against a reference": ArithTheme(("squared difference", "relative difference", "absolute difference",
                                              "normalized difference"), ("squared_error", "huber"), 10, 2),
    "blends of two values": ArithTheme(("midpoint", "weighted average", "linear interpolation"), ("blend",), 6, 2,
                                       one_quantity=True,
                                       forms=("eased interpolation", "fade over a lifetime", "alpha over")),
    "response curves": ArithTheme(("affine map", "polynomial (Horner form)", "clamp to a range", "cubic smoothstep",
                                   "signed square", "soft sign"), (), 12),
    "quadratic terms": ArithTheme(("sum of squares", "squared difference", "signed square"), (), 6, 2),
}
# One entry per purpose of an integer kernel.
INT_THEMES: dict[str, ArithTheme] = {
    "fields of a packed word": ArithTheme(("bit field", "low bits", "pack two fields", "shift division",
                                           "signed low field")),
    "alignment to blocks": ArithTheme(("round down to a multiple", "round up to a multiple", "blocks to cover",
                                       "non-negative remainder", "shift division", "low bits")),
    "indices in a range": ArithTheme(("integer midpoint", "midpoint without overflow", "clamp to a range",
                                      "absolute difference", "saturating add"), fewest_inputs=2),
    "periodic indices": ArithTheme(("non-negative remainder", "distance on a ring", "step on a ring", "mirrored index"),
                                   weight=8),
    "fixed-point scaling": ArithTheme(("rounded division", "fixed-point blend", "integer percentage", "saturating add",
                                       "clamp to a range", "shift division", "fixed-point product")),
    "integer distances": ArithTheme(("absolute difference", "sum of squares", "distance on a ring", "integer midpoint"),
                                    weight=6, fewest_inputs=2),
}
# The share of float kernels of a theme with helpers that apply one.
HELPER_SHARE = 0.25


# The share of blend kernels whose weight is a parameter or a per-element alpha, not a literal.
BLEND_WEIGHT_SHARE = 0.5


def blend_weight(w: KernelWriter) -> Expr:
    """A blend's weight as kernels take it: a parameter passed by value (`alpha: float`), or an alpha per
    element (a mask, a confidence) in [0, 1] on a 1/8 grid, so every blend stays exact."""
    if w.rng.random() < 0.5:
        return w.add_scalar(w.rng.choice(["alpha", "t", "mix", "blend_factor"]), "float32", w.rng.choice(BLEND_WEIGHTS))
    return w.load(w.add_array(w.rng.choice(["alpha", "opacity", "weight_map"]), "float32", "input", low=0.0,
                              high=1.0, grid_bits=3))


# Session 58: of the blend kernels without a helper, those whose weight is itself computed (drawn from a
# stream of their own: the others keep every draw): eased by a smoothstep, a particle's age over its
# lifetime (a colour or size faded out), or a premultiplied source composited over its background.
BLEND_FORMS_SHARE = 0.45
BLEND_FORMS = ARITH_THEMES["blends of two values"].forms


# The two values each form blends, as kernels name them (in pairs): a foreground over its background, a
# start value and its target.
BLEND_FORM_INPUTS = {
    "alpha over": (("src", "fg", "src_color"), ("dst", "bg", "background")),
    "eased interpolation": (("start", "a", "from_value"), ("target", "b", "to_value")),
    "fade over a lifetime": (("start_color", "birth_value", "initial"), ("end_color", "death_value", "final")),
}


def blend_kernel(w: KernelWriter, theme_name: str, form: str) -> KernelSpec:
    """A kernel computing one of BLEND_FORMS (with the extras any arithmetic kernel may have)."""
    rng = w.rng
    first, second = BLEND_FORM_INPUTS[form]
    pair = rng.randrange(len(first))  # names of one pair: a foreground over its background
    loads = [w.add_array(first[pair], "float32", "input", low=-2.0, high=2.0, grid_bits=10),
             w.add_array(second[pair], "float32", "input", low=-2.0, high=2.0, grid_bits=10)]
    realistic_extras(w, ExprGen(w, loads=loads), loads)
    x, y = w.load(loads[0]), w.load(loads[1])
    if form == "alpha over":  # Porter-Duff over, premultiplied: the source covers `alpha` of the pixel
        alpha = w.load(w.add_array(rng.choice(["src_alpha", "coverage", "opacity"]), "float32", "input", low=0.0,
                                   high=1.0, grid_bits=3))
        src = x.src
        if rng.random() < 0.4:  # the layer's opacity scales its colour and its alpha (still premultiplied)
            layer = w.add_scalar(rng.choice(["layer_opacity", "layer_alpha", "fade"]), "float32",
                                 rng.choice([0.25, 0.5, 0.75]))
            alpha = w.assign(Expr(f"{alpha.src} * {layer.src}", "float32", 1.0, None, atom=False), "a")
            src = f"{x.src} * {layer.src}"
            w.feature("a layer opacity")
        value = Expr(f"{src} + (1.0 - {alpha.src}) * {y.src}", "float32", x.mag + y.mag, None, atom=False)
        if rng.random() < 0.5:  # the alpha channel composited the same way
            dst_alpha = w.load(w.add_array(rng.choice(["dst_alpha", "bg_alpha"]), "float32", "input", low=0.0,
                                           high=1.0, grid_bits=3))
            w.store(w.add_array(rng.choice(["alpha_out", "out_alpha", "composited_alpha"]), "float32", "output"),
                    Expr(f"{alpha.src} + (1.0 - {alpha.src}) * {dst_alpha.src}", "float32", 1.0, None, atom=False))
            w.feature("alpha composited too")
    else:
        if form == "eased interpolation":  # ease in and out: the weight's slope is 0 at both ends
            t = (w.load(w.add_array(rng.choice(["progress", "t_map", "blend_mask"]), "float32", "input", low=0.0,
                                    high=1.0, grid_bits=3))
                 if rng.random() < 0.7 else blend_weight(w))
            if rng.random() < 0.3:  # Perlin's smootherstep: the second derivative 0 at both ends too
                eased = f"{t.src} * {t.src} * {t.src} * ({t.src} * ({t.src} * 6.0 - 15.0) + 10.0)"
                w.feature("quintic smootherstep")
            else:
                eased = rng.choice([f"wp.smoothstep(0.0, 1.0, {t.src})", f"{t.src} * {t.src} * (3.0 - 2.0 * {t.src})"])
            weight = w.assign(Expr(eased, "float32", 1.0, None, atom=eased.startswith("wp.")),
                              rng.choice(["eased", "s", "smooth_t"]))
        else:  # the share of its lifetime an element has lived, 1 once it is over
            age = w.load(w.add_array(rng.choice(["age", "elapsed", "time_alive"]), "float32", "input", low=0.0,
                                     high=2.0))
            if rng.random() < 0.4:  # each element's own lifetime (a particle's, drawn at its birth)
                lifetime = w.load(w.add_array(rng.choice(["lifetimes", "max_age", "life_span"]), "float32", "input",
                                              low=0.5, high=2.0))
                w.feature("a lifetime per element")
            else:
                lifetime = w.add_scalar(rng.choice(["lifetime", "fade_time", "duration"]), "float32",
                                        rng.choice([0.5, 1.0, 1.5]))
            if rng.random() < 0.3:  # eased as it fades: smoothstep clamps between its edges itself
                fraction = f"wp.smoothstep(0.0, {lifetime.src}, {age.src})"
                w.feature("eased fade")
            else:
                fraction = f"wp.clamp({age.src} / {lifetime.src}, 0.0, 1.0)"
            weight = w.assign(Expr(fraction, "float32", 1.0, None), rng.choice(["fade", "life_frac", "t"]))
        text = rng.choice([f"wp.lerp({x.src}, {y.src}, {weight.src})",
                           f"{x.src} + {weight.src} * ({y.src} - {x.src})"])
        value = Expr(text, "float32", max(x.mag, y.mag) + x.mag, None, atom=text.startswith("wp.lerp"))
    w.store(add_output(w, holds=form), value)
    w.feature(form)
    w.describe_operations("ops", ("min", "max", "abs", "clamp"), operators=True)
    return w.finish(f"Float arithmetic kernel for {theme_name}")


def theme_of(rng: random.Random, themes: dict[str, ArithTheme]) -> str:
    return rng.choices(list(themes), weights=[theme.weight for theme in themes.values()])[0]


# The formulas that take an earlier formula's result, and the results they take (as math's FED_BY): a
# calibrated value limited to its range or eased, a scaled integer saturated, a polynomial's value clamped.
FED_BY: dict[str, tuple[str, ...]] = {
    "clamp to a range": ("affine map", "polynomial (Horner form)", "integer percentage", "rounded division",
                         "fixed-point blend", "fixed-point product"),
    "cubic smoothstep": ("affine map",),
    "soft sign": ("affine map", "polynomial (Horner form)"),
}
# The share of the formulas FED_BY names that take such a result where the kernel holds one.
FED_SHARE = 0.6
# The share of kernels whose theme holds a formula that feeds another that draw such a formula first.
FEEDER_FIRST_SHARE = 0.5


def themed_formulas(gen: ExprGen, draw, theme: ArithTheme, count: int) -> list[tuple[Expr, str]]:
    """Up to `count` of the theme's formulas (`draw(kind)`: ExprGen.arith_formula or int_formula), one
    on an earlier one's result where it takes one (FED_BY); where none can be built at all, the first
    of the theme's that can."""
    rng, w = gen.rng, gen.w
    stored: list[tuple[Expr, str]] = []
    feeders = [k for k in theme.formulas if any(k in FED_BY.get(c, ()) for c in theme.formulas)]

    def draw_one() -> tuple[Expr, str] | None:
        kinds = feeders if not stored and feeders and rng.random() < FEEDER_FIRST_SHARE else theme.formulas
        kind = rng.choice(kinds)
        sources = [k for k, (_, held) in enumerate(stored) if held in FED_BY.get(kind, ())]
        if not sources or rng.random() >= FED_SHARE:
            return draw(kind)
        k = rng.choice(sources)
        value, held = stored[k]
        if not WORD.fullmatch(value.src):  # the result a local, stored as its own output and read again
            value = w.assign(value, OUTPUT_NAMES[held][0])
            stored[k] = (value, held)
        operands, gen.formula_operands = gen.formula_operands, [value]
        try:
            return draw(kind)
        finally:
            gen.formula_operands = operands

    draw_formulas(gen, draw_one, min(count, len(theme.formulas)), stored)
    for kind in theme.formulas if not stored else ():
        stored = draw_formulas(gen, lambda: draw(kind), 1)
        if stored:
            break
    return stored


def more_formulas(seed: int, count: int) -> int:
    """`count` formulas, raised for some kernels by a draw of its own (so the others keep theirs): a
    one-line kernel becomes two values in 70% of draws (alone, `lane = p & 31` or `x * wp.abs(x)` is
    a kernel repeated seed after seed), three become four in 25% (a packed word decoded field by field)."""
    breadth = random.Random(seed ^ 0xA817F)
    if count == 1 and breadth.random() < 0.7:
        return 2
    if count == 3 and breadth.random() < 0.25:
        return 4
    return count


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    if bits.chooses_bits(seed):
        return bits.generate(rng, name, seed)
    if quantized.chooses_quantized(seed):
        return quantized.generate(rng, name, seed)
    w = KernelWriter(rng, name, "arithmetic", seed, pick_dim(rng, nd_prob=0.25))
    if rng.random() < 0.35:
        theme_name = theme_of(rng, INT_THEMES)
        theme = INT_THEMES[theme_name]
        # two or three values of one theme (one, `x & 15` alone, is a kernel repeated seed after seed)
        formulas = max(2, more_formulas(seed, rng.choice([1, 2, 2, 3, 3])))
        # several formulas mostly decode one value (its bit fields, its residues, its multiple), as
        # such kernels do, rather than each taking an input of its own
        inputs = 1 if formulas >= 2 and rng.random() < 0.8 else rng.randint(1, 3)
        loads = add_inputs(w, "int32", max(inputs, theme.fewest_inputs), low=-100, high=100, grid_bits=0)
        gen = ExprGen(w, loads=loads)
        if len(w.dim) == 1 and rng.random() < 0.15:
            early_return(w)
        if len(w.dim) == 1 and rng.random() < 0.2:
            add_gather(w, gen, rng.choice(loads))  # e.g. a label looked up through a permutation
        stored = themed_formulas(gen, gen.int_formula, theme, formulas)
        for value, kind in stored:
            w.store(add_output(w, "int32", holds=kind), gen.meaningful(value))
        w.feature("int32 / // % semantics")
        w.describe_operations("ops", ("min", "max", "abs", "clamp"), operators=True)
        return w.finish(f"Integer arithmetic kernel for {theme_name}")
    theme_name = theme_of(rng, ARITH_THEMES)
    theme = ARITH_THEMES[theme_name]
    if theme.forms and random.Random(seed ^ 0xB1E4D).random() < BLEND_FORMS_SHARE:
        return blend_kernel(w, theme_name, random.Random(seed ^ 0xB1E4E).choice(theme.forms))
    loads = add_inputs(w, "float32", rng.randint(theme.fewest_inputs, 4))
    ops = tuple(rng.sample(ARITH_OPS, rng.randint(3, len(ARITH_OPS))))
    gen = ExprGen(w, ops, loads=loads)
    realistic_extras(w, gen, loads)
    helped = False
    if theme.helpers and rng.random() < HELPER_SHARE:  # a helper with a purpose: a blend, a squared error, a Huber loss
        kind = rng.choice(theme.helpers)
        a = w.load(loads[0])
        if kind == "blend":
            t = w.add_scalar(rng.choice(["alpha", "t", "mix"]), "float32", rng.choice([0.25, 0.5, 0.75]))
            value = call(w, kind, a, w.load(loads[1]), t)
        elif len(loads) >= 2:  # of a residual: the value less its reference
            b = w.load(loads[1])
            value = call(w, kind, w.assign(Expr(f"{a.src} - {b.src}", "float32", a.mag + b.mag, join_q(a.q, b.q),
                                                atom=False), "r"))
        else:
            value = call(w, kind, a)
        w.store(add_output(w, holds=kind), value)
        gen.formula_operands.append(a)  # the formulas that follow work on the helper's input
        helped = True
    # a kernel of its own rarely computes a single one-line formula: mostly two or three values
    count = rng.randint(0, 3) if helped else max(2, more_formulas(seed, rng.choice([1, 2, 2, 3, 3])))
    if theme.one_quantity:
        count = 0 if helped else 1
    if helped and kind == "squared_error":  # the helper's is the kernel's squared difference
        theme = theme._replace(formulas=tuple(k for k in theme.formulas if k != "squared difference"))
    draw = gen.arith_formula
    if theme.one_quantity and count and rng.random() < BLEND_WEIGHT_SHARE:
        weight = blend_weight(w)
        draw = lambda kind: gen.arith_formula(kind, weight)  # noqa: E731 (a midpoint takes none)
    stored = themed_formulas(gen, draw, theme, count) if count else []
    for value, kind in stored:
        w.store(add_output(w, holds=kind), gen.meaningful(value))
    w.describe_operations("ops", ("min", "max", "abs", "clamp"), operators=True)
    return w.finish(f"Float arithmetic kernel for {theme_name}")


__all__ = ["ARITH_FORMULAS", "INT_FORMULAS", "generate"]
