"""Atomics as kernels use them, one table entry per pattern (ATOMIC_FORMS): a histogram (counts per bin,
sums per bin), a segmented reduction (sums and counts per group through an index array), global
moments (total, sum of squares, peak), extremes per group (atomic_max / atomic_min), stocks drawn
down (atomic_sub), a per-thread best-so-far whose returned old value is used, and a particle-to-grid
deposit (linear weights to the two nodes around a particle, often through a `@wp.func` returning nothing).

Inputs lie on a coarse grid (multiples of 1/8) and values are inputs or products of two, so every
float sum is exact in any order: the result does not depend on which thread wins a race.

A quarter of the kernels accumulate in float64, as Warp's topology-optimisation example sums its
losses: float64 arrays and parameters, `wp.float64(...)` casts of float32 data and of constants
(Warp does not mix precisions: a float literal is float32, so every float64 constant is cast).
Values are products of grid values and divisions by powers of two, exact in float64 whatever the
order of the atomic updates; a `wp.pow` term rounds, well inside float64's tolerance. Some float64
kernels (a stream of their own, session 47) reduce a dot product of two fields, a mean absolute error
or a Huber loss instead, summed the same ways.
"""
from __future__ import annotations

import math
import random

from synthesis.categories import claims, searches
from synthesis.categories.common import add_inputs, early_return, takes_variant
from synthesis.exprgen import IDENTIFIER, Expr, KernelWriter
from synthesis.spec import KernelSpec

def f64(value: float) -> str:
    """A float64 constant as Warp code spells it."""
    return f"wp.float64({value!r})"


F64_REDUCTIONS = {None: 0.6, "dot": 0.12, "l1": 0.12, "huber": 0.16}


def float64_accumulation(rng: random.Random, w: KernelWriter) -> None:
    """A float64 reduction: per-element terms in float64 summed into a few slots (atomic_add or `+=`)."""
    # session 47: further reductions, drawn from a stream of their own (the kernels it leaves alone keep
    # every draw of `rng`)
    form = random.Random(w.seed ^ 0xF64A).choices(list(F64_REDUCTIONS), weights=list(F64_REDUCTIONS.values()))[0]
    if form is not None:
        float64_reduction(rng, w, form)
        return
    n = w.dim[0]
    density = w.add_array(rng.choice(["density", "rho", "fraction", "phi"]), "float64", "input", low=0.0, high=1.0,
                          grid_bits=rng.choice([6, 8, 10]))
    d = w.load(density)
    terms: list[str] = []
    kind = rng.choice(["volume", "weighted", "penalised", "mixed", "grayness", "moment", "mass", "squared error"])
    if rng.random() < 0.2:
        early_return(w)
    cells = float(rng.choice([n // 4, n // 2, n, 2 * n]))
    # the normaliser: a count divided by, or its reciprocal (exact: a power of two) multiplied by
    reciprocal = rng.random() < 0.35
    if reciprocal:
        count = w.add_scalar(rng.choice(["inv_count", "inv_n", "inv_cells"]), "float64", 1.0 / cells)
    else:
        count = w.add_scalar(rng.choice(["count", "normalization", "total_cells"]), "float64", cells)
    per = f" * {count.src}" if reciprocal else f" / {count.src}"
    if kind == "mass":  # density times a cell volume passed by value, no normalisation
        cell = w.add_scalar(rng.choice(["cell_volume", "dv", "voxel_size"]), "float64", rng.choice([0.125, 0.25, 0.5]))
        value = f"{d.src} * {cell.src}"
        if takes_variant(w.seed, 0xA55):  # cells of their own sizes (a graded mesh)
            volumes = w.add_array(rng.choice(["cell_volumes", "volumes", "dV"]), "float64", "input", low=0.125, high=0.5,
                                  grid_bits=3)
            value = f"{d.src} * {w.load(volumes).src}"
            terms.append("a volume per cell")
        mag = 0.5
        if rng.random() < 0.4:  # the first moment too, for the centre of mass: cell centres on a 1-D grid
            dx = w.add_scalar(rng.choice(["dx", "spacing", "h"]), "float64", rng.choice([0.125, 0.25, 0.5]))
            moment = w.add_array(rng.choice(["moment", "first_moment", "mass_x"]), "float64", "output", shape=(1,))
            w.emit(f"wp.atomic_add({moment}, 0, (wp.float64(tid) + {f64(0.5)}) * {dx.src} * {value})")
            w.note_bound(moment, 4.0 + n * n * 0.5 * 0.5)
            terms.append("first moment (centre of mass)")
    elif kind == "squared error":  # against a float32 target, accumulated in float64
        target = w.add_array(rng.choice(["target", "reference", "goal"]), "float32", "input", low=0.0, high=1.0,
                             grid_bits=6)
        w.emit(f"err = {d.src} - wp.float64({w.load(target).src})")
        half = rng.random() < 0.4  # the 1/2 that makes the gradient the error itself
        value = f"{f64(0.5)} * err * err{per}" if half else f"err * err{per}"
        mag = 1.0
        terms.append("float32 cast to float64")
    elif kind == "volume":  # mean density
        value = f"{d.src}{per}"
        mag = 1.0
    elif kind == "grayness":  # how far densities are from 0 or 1 (a topology optimiser's penalty)
        scale = rng.choice([1.0, 4.0])
        gray = f"{d.src} * ({f64(1.0)} - {d.src})"
        value = f"{f64(scale)} * {gray}{per}" if scale != 1.0 else f"{gray}{per}"
        mag = scale * 0.25
    elif kind == "moment":  # second moment of the density about a reference level
        level = rng.choice([0.0, 0.25, 0.5])
        if level:
            w.emit(f"dev = {d.src} - {f64(level)}")
            value = f"dev * dev{per}"
        else:
            value = f"{d.src} * {d.src}{per}"
        mag = 1.0
    elif kind == "weighted":  # float32 data joins through a cast
        weight = w.add_array(rng.choice(["weight", "area", "volume"]), "float32", "input", low=0.0, high=2.0,
                             grid_bits=4)
        wv = w.load(weight)
        w.emit(f"contrib = wp.float64({wv.src}) * {d.src}")
        value = f"contrib{per}"
        mag = 2.0
        terms.append("float32 cast to float64")
    else:  # SIMP-like stiffness scaling of an energy, floor on the density
        energy = w.add_array(rng.choice(["energy", "strain_energy", "work"]), "float64", "input", low=0.0, high=4.0,
                             grid_bits=6)
        e = w.load(energy)
        floor = rng.choice([0.0625, 0.125, 0.001])
        w.emit(f"rho_c = wp.max({d.src}, {f64(floor)})")
        if kind == "penalised":
            penal = w.add_scalar("penal", "float64", rng.choice([2.0, 3.0]))
            ratio = w.add_scalar(rng.choice(["emin_ratio", "min_ratio"]), "float64", rng.choice([0.0625, 0.125]))
            w.emit(f"scale = {ratio.src} + ({f64(1.0)} - {ratio.src}) * wp.pow(rho_c, {penal.src})")
            if rng.random() < 0.35:  # the compliance's sensitivity to the density, for the optimiser's update
                sens = w.add_array(rng.choice(["sensitivity", "dc_drho", "grad_rho"]), "float64", "output")
                w.emit(f"{sens}[tid] = -{penal.src} * ({f64(1.0)} - {ratio.src}) * wp.pow(rho_c, {penal.src} - {f64(1.0)}) * {e.src}")
                w.note_bound(sens, 3.0 * 4.0)
                terms.append("density sensitivity")
        else:
            w.emit(f"scale = rho_c * {f64(rng.choice([0.5, 2.0, 0.25]))}")
        value = f"-scale * {e.src}{per}" if rng.random() < 0.5 else f"scale * {e.src}{per}"
        mag = 4.0 * 2.0
    accumulate_float64(rng, w, value, mag, terms, kind)


def accumulate_float64(rng: random.Random, w: KernelWriter, value: str, mag: float, terms: list[str], kind: str) -> None:
    """A float64 term per element summed into one slot or a few (a slot per material, or spread by the
    thread index), by atomic_add or `+=`; the term kept per element too in some, as float32."""
    n = w.dim[0]
    keep_term = rng.random() < 0.4  # the per-element term kept too, as float32 for a float32 consumer
    if keep_term and not value.isidentifier():  # (a term computed in branches is named already)
        w.emit(f"term = {value}")
        value = "term"
    slots = rng.choice([1, 1, 4, 8])
    loss = w.add_array(rng.choice(["loss", "total", "objective", "accum"]), "float64", "output", shape=(slots,))
    if slots == 1:
        slot = "0"
    elif rng.random() < 0.5:  # a slot per material (an id per element) rather than a spread over slots
        slot = _group_index(w, slots, binned=False)[0]
        terms.append("a slot per material")
    else:
        slot = f"tid % {slots}"
    if rng.random() < 0.5:
        w.emit(f"wp.atomic_add({loss}, {slot}, {value})")
    else:
        w.emit(f"{loss}[{slot}] += {value}")
    w.note_bound(loss, 4.0 + n * mag)
    if keep_term:
        out = w.add_array(rng.choice(["per_cell", "cell_term", "cell_value"]), "float32", "output")
        w.emit(f"{out}[tid] = float({value})")
        w.note_bound(out, mag)
        terms.append("float64 to float32 cast")
    w.feature(f"float64 accumulation ({kind})" + "".join(f"; {t}" for t in terms))


def float64_reduction(rng: random.Random, w: KernelWriter, form: str) -> None:
    """More float64 reductions, each exact in any order (grid values, power-of-two normalisers), summed
    as the others are (`accumulate_float64`):
    - a dot product of two float64 fields (a compliance u . f, a work f . v);
    - the mean absolute error against a float32 target (L1);
    - the Huber loss against it (quadratic within delta, linear outside: a branch per element)."""
    n = w.dim[0]
    if rng.random() < 0.2:
        early_return(w)
    if form == "dot":
        u = w.add_array(rng.choice(["u", "displacement", "velocity"]), "float64", "input", grid_bits=6)
        f = w.add_array(rng.choice(["f", "force", "load"]), "float64", "input", grid_bits=6)
        value, mag, kind = f"{w.load(u).src} * {w.load(f).src}", 1.0, "dot product of two fields"
    else:  # against a float32 target, accumulated in float64
        x = w.add_array(rng.choice(["prediction", "density", "phi"]), "float64", "input", grid_bits=6)
        target = w.add_array(rng.choice(["target", "reference", "goal"]), "float32", "input", grid_bits=6)
        w.emit(f"err = {w.load(x).src} - wp.float64({w.load(target).src})")
        if form == "l1":
            value, mag, kind = "wp.abs(err)", 2.0, "mean absolute error"
        else:
            delta = w.add_scalar(rng.choice(["delta", "huber_delta", "threshold"]), "float64", rng.choice([0.25, 0.5]))
            w.emit("a = wp.abs(err)")
            with w.block(f"if a <= {delta.src}:"):
                w.emit(f"term = {f64(0.5)} * err * err")
            with w.block("else:"):
                w.emit(f"term = {delta.src} * (a - {f64(0.5)} * {delta.src})")
            value, mag, kind = "term", 2.0, "Huber loss, quadratic within delta"
    terms = ["float32 cast to float64"] if form != "dot" else []
    if rng.random() < 0.5:  # a mean: divided by the count, or times its reciprocal
        count = w.add_scalar(rng.choice(["inv_count", "inv_n"]), "float64", 1.0 / n) if rng.random() < 0.5 else \
            w.add_scalar(rng.choice(["count", "normalization"]), "float64", float(n))
        value = f"{value} * {count.src}" if count.src.startswith("inv") else f"{value} / {count.src}"
    accumulate_float64(rng, w, value, mag, terms, kind)


def _group_index(w: KernelWriter, groups: int, binned: bool = True) -> tuple[str, int]:
    """The thread's group and the number of groups: a label array, loaded once (as a segment or
    cluster id is given), or now and then the cell a normalised position falls in (particles binned
    on a line or on a square grid of cells, as a neighbour search's counting pass bins them). Every
    form of one kernel reduces over the same groups, so the first form to ask sets them."""
    if w.group_index is not None:
        return w.group_index
    label = next((a for a in w.args if a.role == "index" and a.name in GROUP_HINTS), None)
    if label is not None:
        w.group_index = (w.load(label.name).src, label.high + 1)
    elif binned and w.rng.random() < 0.3:  # (not in float64 kernels: a float32 position's literal scale)
        w.group_index = _position_cell(w, groups)
    else:
        idx = w.add_array(w.rng.choice(GROUP_HINTS), "int32", "index", index_high=groups - 1)
        w.group_index = (w.load(idx).src, groups)
    return w.group_index


def _position_cell(w: KernelWriter, groups: int) -> tuple[str, int]:
    """The cell of a normalised position in [0, 1): `int(x * n)` on a line of n cells, or on a square
    grid `cy * n + cx`, clamped (a position of exactly 1 would fall past the last cell)."""
    side = {16: 4, 64: 8}.get(groups) if w.rng.random() < 0.6 else None
    axes = ("x", "y") if side else ("x",)
    per_axis = side or groups
    hints = w.rng.choice([("pos_x", "pos_y"), ("px", "py"), ("x_norm", "y_norm")])
    named = w.rng.random() < 0.4
    n = w.add_constant("CELLS_PER_AXIS" if side else "NUM_CELLS", per_axis).src if named else str(per_axis)
    scale = f"float({n})" if named else f"{float(per_axis)!r}"
    cells = []
    for axis, hint in zip(axes, hints):
        x = w.load(w.add_array(hint, "float32", "input", low=0.0, high=1.0 - 1.0 / 128, grid_bits=7))
        c = w.fresh(f"c{axis}" if side else "cell")
        w.emit(f"{c} = wp.clamp(int({x.src} * {scale}), 0, {n} - 1)" if named
               else f"{c} = wp.clamp(int({x.src} * {scale}), 0, {per_axis - 1})")
        cells.append(c)
    if side:
        cell = w.fresh("cell")
        w.emit(f"{cell} = {cells[1]} * {n} + {cells[0]}")
        w.feature("positions binned on a square grid of cells")
        return cell, per_axis * per_axis
    w.feature("positions binned into cells")
    return cells[0], per_axis


GROUP_HINTS = ("group", "label", "segment", "cell_id")


def _value(w: KernelWriter, loads: list[str], dtype: str, squared: bool = False) -> Expr:
    """What a thread contributes: an input as it is (most often), or the product of two (a weighted
    value), its magnitude, its positive part, or (unless the caller squares it: `squared`) its square
    (an energy) or the input times a scale passed by value, a power of two. Inputs lie on a grid
    of 1/8, so each of these is exact and so is any sum of them."""
    x = w.load(w.rng.choice(loads))
    how = w.rng.random()
    if dtype == "float32" and len(loads) > 1 and how < 0.3:
        a, b = (w.load(name) for name in loads[:2])
        return Expr(f"{a.src} * {b.src}", dtype, a.mag * b.mag, 6, atom=False)
    if how < 0.45:
        return x
    if how < 0.67:
        w.feature("magnitudes accumulated")
        return Expr(f"wp.abs({x.src})", dtype, x.mag, x.q)
    if how < 0.77:
        w.feature("positive parts accumulated")
        zero = "0.0" if dtype == "float32" else "0"
        return Expr(f"wp.max({x.src}, {zero})", dtype, x.mag, x.q)
    if squared:
        return x
    if how < 0.88 and dtype == "float32":
        scale = w.add_scalar(w.rng.choice(["scale", "weight", "unit"]), "float32", w.rng.choice([0.25, 0.5, 2.0]))
        w.feature("values scaled by a parameter")
        return Expr(f"{x.src} * {scale.src}", dtype, 2.0 * x.mag, 6, atom=False)
    w.feature("squares accumulated")
    return Expr(f"{x.src} * {x.src}", dtype, x.mag * x.mag, 6, atom=False)


def histogram(w: KernelWriter, loads: list[str], dtype: str) -> None:
    """Counts per bin: the bin from the value (`int((x - LO) / WIDTH)`, clamped to the bins; for ints
    the low bits), `wp.atomic_add(counts, b, 1)`; sometimes the values summed per bin too; or, of two
    float inputs, a joint histogram (a 2-D grid of bins, flattened row by row)."""
    if dtype == "float32" and len(loads) > 1 and w.rng.random() < 0.25:
        joint_histogram(w, loads)
        return
    x = w.load(loads[0])
    nbins = w.rng.choice([8, 16])
    counts = w.add_array(w.rng.choice(["counts", "hist", "histogram"]), "int32", "output", shape=(nbins,))
    b = w.fresh("b")
    if dtype == "float32" and w.rng.random() < 0.2:  # of a magnitude (a speed, an error's size): bins over [0, 4)
        mag = w.assign(Expr(f"wp.abs({x.src})", dtype, x.mag, x.q), "mag")
        w.emit(f"{b} = wp.min(int({mag.src} * {nbins / 4.0!r}), {nbins - 1})")
        w.feature("histogram of a magnitude")
    elif dtype == "float32":
        width = 8.0 / nbins  # the inputs span [-4, 4]: bins of a power-of-two width, so the bin is exact
        shifted = f"({x.src} + 4.0)" if w.rng.random() < 0.5 else f"({x.src} - {w.add_constant('LO', -4.0).src})"
        if w.rng.random() < 0.5:  # the bin width named at module level
            scaled = f"{shifted} / {w.add_constant('BIN_WIDTH', width).src}"
        else:  # bins per unit as a literal factor (none for unit bins)
            scaled = shifted[1:-1] if width == 1.0 else f"{shifted} * {1.0 / width!r}"
        b_raw = f"int({scaled})" if w.rng.random() < 0.6 else f"int(wp.floor({scaled}))"
        # clamped at both ends, as a histogram of values from anywhere must be (the inputs' span keeps
        # the bin off 0 from below, but a bound that holds only for the test's data is not one to teach)
        w.emit(f"{b} = wp.max(wp.min({b_raw}, {nbins - 1}), 0)" if w.rng.random() < 0.5
               else f"{b} = wp.clamp({b_raw}, 0, {nbins - 1})")
        w.feature("histogram of a float value")
    else:
        w.emit(f"{b} = {x.src} & {nbins - 1}" if w.rng.random() < 0.5 else f"{b} = (({x.src} % {nbins}) + {nbins}) % {nbins}")
        w.feature("histogram of an integer's residue")
    w.emit(f"wp.atomic_add({counts}, {b}, 1)" if w.rng.random() < 0.6 else f"{counts}[{b}] += 1")
    w.note_bound(counts, w.dim[0])
    if w.rng.random() < 0.4:
        value = _value(w, loads, dtype)
        sums = w.add_array(w.rng.choice(["bin_sums", "weights_per_bin"]), dtype, "output", shape=(nbins,))
        w.emit(f"wp.atomic_add({sums}, {b}, {value.src})")
        w.note_bound(sums, w.dim[0] * value.mag)
        w.feature("sums per bin")


def joint_histogram(w: KernelWriter, loads: list[str]) -> None:
    """Counts per cell of a 2-D grid of bins over two values (a joint distribution, as a
    co-occurrence matrix is gathered), the cell flattened row by row."""
    n = w.rng.choice([4, 8])
    counts = w.add_array(w.rng.choice(["joint_hist", "hist2d", "pair_counts"]), "int32", "output", shape=(n * n,))
    per_unit = n / 8.0  # the inputs span [-4, 4]
    bins = []
    for name in loads[:2]:
        v = w.load(name)
        b = w.fresh("b")
        scaled = f"({v.src} + 4.0) * {per_unit!r}" if per_unit != 1.0 else f"{v.src} + 4.0"
        w.emit(f"{b} = wp.clamp(int({scaled}), 0, {n - 1})")
        bins.append(b)
    w.emit(f"wp.atomic_add({counts}, {bins[0]} * {n} + {bins[1]}, 1)")
    w.note_bound(counts, w.dim[0])
    w.feature("joint histogram of two values")


def group_sums(w: KernelWriter, loads: list[str], dtype: str) -> None:
    """A segmented reduction: each thread adds its value into its group's sum (and 1 into its count)
    through an index array: sums and counts from which the group means follow."""
    g, groups = _group_index(w, w.rng.choice([4, 8, 16, 32]))
    if dtype == "float32" and w.rng.random() < 0.25:
        weighted_group_sums(w, loads, g, groups)
        return
    value = _value(w, loads, dtype)
    sums = w.add_array(w.rng.choice(["sums", "group_total", "acc"]), dtype, "output", shape=(groups,))
    w.emit(f"wp.atomic_add({sums}, {g}, {value.src})" if w.rng.random() < 0.6 else f"{sums}[{g}] += {value.src}")
    w.note_bound(sums, w.dim[0] * value.mag)
    if w.rng.random() < 0.6:
        counts = w.add_array(w.rng.choice(["counts", "group_size", "n_members"]), "int32", "output", shape=(groups,))
        w.emit(f"wp.atomic_add({counts}, {g}, 1)")
        w.note_bound(counts, w.dim[0])
        w.feature("sums and counts per group")
    else:
        w.feature("sums per group")


def weighted_group_sums(w: KernelWriter, loads: list[str], g: str, groups: int) -> None:
    """A weighted mean per group, as its two sums: each member's weight (a mass, a confidence) times
    its value, and the weights alone; the group's mean is their quotient (a cluster's centre of mass)."""
    weight = w.load(w.add_array(w.rng.choice(["mass", "weight", "confidence"]), "float32", "input",
                                low=0.125, high=2.0, grid_bits=3))
    x = _value(w, loads[:1], "float32", squared=True)
    moment = w.add_array(w.rng.choice(["weighted_sum", "moment", "mx_sum"]), "float32", "output", shape=(groups,))
    total = w.add_array(w.rng.choice(["weight_sum", "mass_sum", "total_weight"]), "float32", "output", shape=(groups,))
    product = f"{weight.src} * {x.operand()}"
    w.emit(f"wp.atomic_add({moment}, {g}, {product})" if w.rng.random() < 0.7 else f"{moment}[{g}] += {product}")
    w.emit(f"wp.atomic_add({total}, {g}, {weight.src})" if w.rng.random() < 0.6 else f"{total}[{g}] += {weight.src}")
    w.note_bound(moment, w.dim[0] * weight.mag * x.mag)
    w.note_bound(total, w.dim[0] * weight.mag)
    w.feature("weighted sums per group (a weighted mean)")


def moments(w: KernelWriter, loads: list[str], dtype: str) -> None:
    """Global statistics of the values, each into a one-element array, the ones people gather together
    in one pass: a total with the sum of squares (a mean and a variance) or with the peak; the sum of
    magnitudes with the sum of squares or the largest magnitude (L1, L2 and max norms); the positive
    parts summed with how many there were (the mean of the positive values); a dot product of two
    fields, with the squared norm of one (a projection's coefficient); a total of values scaled by a
    parameter (a unit conversion). The sum of squares squares the value itself, never its magnitude."""
    zero = "0.0" if dtype == "float32" else "0"
    span = 0.5 if dtype == "float32" else 5
    grid = 3 if dtype == "float32" else 0

    def one_slot(hints: list[str], value: Expr, op: str = "add", inout: bool = False) -> None:
        name = w.add_array(w.rng.choice(hints), dtype, "inout" if inout else "output", shape=(1,),
                           **({"low": -span, "high": span, "grid_bits": grid} if inout else {}))
        if op == "add" and w.rng.random() < 0.4:
            w.emit(f"{name}[0] += {value.src}")
        else:
            w.emit(f"wp.atomic_{op}({name}, 0, {value.src})")
        w.note_bound(name, (value.mag + 4) if inout else w.dim[0] * value.mag)

    how = w.rng.random()
    if dtype == "float32" and len(loads) > 1 and how < 0.25:
        a, b = (w.load(name) for name in loads[:2])
        one_slot(["dot", "inner", "sum_xy"], Expr(f"{a.src} * {b.src}", dtype, a.mag * b.mag, 6, atom=False))
        if w.rng.random() < 0.5:
            one_slot(["norm_sq", "sum_bb", "self_dot"], Expr(f"{b.src} * {b.src}", dtype, b.mag * b.mag, 6, atom=False))
            w.feature("dot product and squared norm")
        else:
            w.feature("dot product")
        return
    x = w.load(w.rng.choice(loads))
    square = Expr(f"{x.src} * {x.src}", dtype, x.mag * x.mag, 6 if dtype == "float32" else 0, atom=False)
    if how < 0.5:
        one_slot(["total", "sum_x", "acc"], x)
        if w.rng.random() < 0.5:
            one_slot(["sum_sq", "sum_x2", "energy"], square)
            w.feature("sum and sum of squares")
        else:
            kind = w.rng.choice(["max", "max", "min"])
            one_slot(["peak", "max_value"] if kind == "max" else ["trough", "min_value"], x, kind, inout=True)
            w.feature(f"total and {'peak' if kind == 'max' else 'trough'}")
    elif how < 0.72:
        magnitude = Expr(f"wp.abs({x.src})", dtype, x.mag, x.q)
        with_l2 = w.rng.random() < 0.5
        if not with_l2:  # read twice: a local
            magnitude = w.assign(magnitude, "mag")
        one_slot(["l1", "sum_abs", "abs_total"], magnitude)
        if with_l2:
            one_slot(["l2_sq", "sum_sq"], square)
            w.feature("L1 norm and squared L2 norm")
        else:
            one_slot(["max_abs", "linf"], magnitude, "max", inout=True)
            w.feature("L1 and max norms")
    elif how < 0.88:
        with w.block(f"if {x.src} > {zero}:"):
            one_slot(["positive_total", "sum_pos", "gain_total"], x)
            count = w.add_array(w.rng.choice(["n_positive", "pos_count"]), "int32", "output", shape=(1,))
            w.emit(f"wp.atomic_add({count}, 0, 1)")
            w.note_bound(count, w.dim[0])
        w.feature("sum and count of the positive values")
    else:
        if dtype == "float32":
            scale = w.add_scalar(w.rng.choice(["scale", "unit", "to_si"]), "float32", w.rng.choice([0.25, 0.5, 2.0]))
            value = Expr(f"{x.src} * {scale.src}", dtype, 2.0 * x.mag, 6, atom=False)
            w.feature("total of scaled values")
        else:
            value = square
            w.feature("sum of squares")
        one_slot(["total", "scaled_sum"] if dtype == "float32" else ["sum_sq", "energy"], value)


def extremes_per_group(w: KernelWriter, loads: list[str], dtype: str) -> None:
    """The largest and/or smallest value per group (a cell's highest point, a cluster's extent), with
    atomic_max / atomic_min into arrays that start from the caller's values."""
    # 8 to 16 threads per group, whatever the launch's shape: a group of 128 integers drawn from
    # [-50, 50] nearly always reaches 50, and every group's extreme is then the same
    threads = math.prod(w.dim)
    g, groups = _group_index(w, w.rng.choice([max(4, threads // 16), max(4, threads // 8)]))
    span = 0.5 if dtype == "float32" else 5
    grid = 3 if dtype == "float32" else 0
    if len(loads) > 1 and w.rng.random() < 0.35:  # a box per group: the extent along each coordinate
        for coordinate in loads[:2]:
            c = w.load(coordinate)
            for kind in ("min", "max"):
                target = w.add_array(f"{kind}_{coordinate}", dtype, "inout", shape=(groups,), low=-span, high=span,
                                     grid_bits=grid)
                w.emit(f"wp.atomic_{kind}({target}, {g}, {c.src})")
                w.note_bound(target, c.mag + 4)
        w.feature("bounds per group along two coordinates")
        return
    x = w.load(loads[0])
    if w.rng.random() < 0.2:  # the largest magnitude per group (a cell's peak deviation either way)
        x = w.assign(Expr(f"wp.abs({x.src})", dtype, x.mag, x.q), "mag")
        target = w.add_array(w.rng.choice(["max_abs_per_group", "peak_magnitude", "cell_amplitude"]), dtype, "inout",
                             shape=(groups,), low=0.0 if dtype == "float32" else 0, high=span, grid_bits=grid)
        w.emit(f"wp.atomic_max({target}, {g}, {x.src})")
        w.note_bound(target, x.mag + 4)
        w.feature("largest magnitude per group (atomic_max)")
        return
    kinds = w.rng.choice([("max",), ("min",), ("max", "min")])
    for kind in kinds:
        target = w.add_array(w.rng.choice([f"{kind}_per_group", f"group_{kind}", f"cell_{kind}"]), dtype, "inout",
                             shape=(groups,), low=-span, high=span, grid_bits=grid)
        w.emit(f"wp.atomic_{kind}({target}, {g}, {x.src})")
        w.note_bound(target, x.mag + 4)
    w.feature("extremes per group (" + ", ".join(f"atomic_{k}" for k in kinds) + ")")


def budget(w: KernelWriter, loads: list[str], dtype: str) -> None:
    """Demands taken from shared stocks: `wp.atomic_sub(stock, item, amount)` (or `-=`), each thread
    drawing on the item an index array names."""
    g, items = _group_index(w, w.rng.choice([4, 8, 16]))
    amount = _value(w, loads, dtype)
    span = 64.0 if dtype == "float32" else 500
    stock = w.add_array(w.rng.choice(["stock", "remaining", "capacity"]), dtype, "inout", shape=(items,),
                        low=0.0 if dtype == "float32" else 0, high=span, grid_bits=3 if dtype == "float32" else 0)
    w.emit(f"wp.atomic_sub({stock}, {g}, {amount.src})" if w.rng.random() < 0.6 else f"{stock}[{g}] -= {amount.src}")
    w.note_bound(stock, span + w.dim[0] * amount.mag)
    w.feature("stock drawn down (atomic_sub)")
    if w.rng.random() < 0.35:  # and how many orders each item had
        orders = w.add_array(w.rng.choice(["orders", "n_requests", "demand_count"]), "int32", "output", shape=(items,))
        w.emit(f"wp.atomic_add({orders}, {g}, 1)")
        w.note_bound(orders, w.dim[0])
        w.feature("orders counted per item")


def best_so_far(w: KernelWriter, loads: list[str], dtype: str) -> None:
    """A best score kept per element across launches (a particle swarm's personal best, a pixel's
    brightest frame), and the improvement over it or a new-record flag; often the best over all
    elements too, by an atomic on one shared slot. Each thread owns its element, so it is read and
    written plainly (session 55: `old = wp.atomic_max(best, tid, score)` took an atomic on a slot
    no other thread touches, to learn a value one load gives); the shared best is where threads
    meet, and its final value is the same in any order."""
    score = w.load(loads[0])
    span = 4 if dtype == "float32" else 50
    kind = w.rng.choice(["max", "min"])
    best = w.add_array(w.rng.choice(["best", "record"]) if kind == "max" else w.rng.choice(["lowest", "best_cost"]),
                       dtype, "inout", low=-span, high=span, grid_bits=3 if dtype == "float32" else 0)
    own = w.own_index()
    old = w.assign(Expr(f"{best}[{own}]", dtype, float(span), 3 if dtype == "float32" else 0), "prev_best")
    zero = "0.0" if dtype == "float32" else "0"
    better = f"{score.src} > {old.src}" if kind == "max" else f"{score.src} < {old.src}"
    margin = f"{score.src} - {old.src}" if kind == "max" else f"{old.src} - {score.src}"
    how = w.rng.random()
    if how < 0.25:  # whether this thread set a new record: a flag per element
        w.store(w.add_array(w.rng.choice(["improved", "new_record"]), "int32", "output"),
                Expr(f"wp.where({better}, 1, 0)", "int32", 1.0, 0))
        w.feature("new-record flag")
    else:
        gain = f"wp.max({margin}, {zero})" if how < 0.7 else f"wp.where({better}, {margin}, {zero})"
        w.store(w.add_array(w.rng.choice(["improvement", "gain"]), dtype, "output"),
                Expr(gain, dtype, 2.0 * span, 3 if dtype == "float32" else 0))
    # launches since the element last improved (an optimiser's patience counter), reset by a new best
    stale = w.add_array(w.rng.choice(["stale_count", "patience_count", "no_improve_count"]), "int32", "inout", low=0, high=20,
                        grid_bits=0) if w.rng.random() < 0.3 else None
    if stale is not None:
        w.note_bound(stale, 21 + 1)
        w.feature("launches since the last improvement counted")
    if w.rng.random() < 0.5:
        w.emit(f"{best}[{own}] = wp.{kind}({old.src}, {score.src})")
        if stale is not None:
            w.emit(f"{stale}[{own}] = wp.where({better}, 0, {stale}[{own}] + 1)")
    else:
        where = w.load(loads[1]) if len(loads) > 1 and w.rng.random() < 0.4 else None
        with w.block(f"if {better}:"):
            w.emit(f"{best}[{own}] = {score.src}")
            if where is not None:  # and where it was scored (a swarm's personal best position)
                spec = w.arg(loads[1])
                at = w.add_array(w.rng.choice(["best_at", "best_param", "argbest"]), spec.dtype, "inout",
                                 low=spec.low, high=spec.high, grid_bits=spec.grid_bits)
                w.emit(f"{at}[{own}] = {where.src}")
                w.feature("and where it was reached")
            if stale is not None:
                w.emit(f"{stale}[{own}] = 0")
            if w.rng.random() < 0.3:  # how many elements improved in this launch: a slot they share
                improved = w.add_array(w.rng.choice(["n_improved", "improved_count"]), "int32", "output", shape=(1,))
                w.emit(f"wp.atomic_add({improved}, 0, 1)")
                w.note_bound(improved, w.dim[0])
                w.feature("improvements counted")
        if stale is not None:
            with w.block("else:"):
                w.emit(f"{stale}[{own}] += 1")
    w.note_bound(best, span + score.mag)
    w.feature(f"best per element kept ({kind})")
    if w.rng.random() < 0.6:  # and the best of all, where the threads meet
        overall = w.add_array(w.rng.choice([f"global_{'best' if kind == 'max' else 'lowest'}", f"overall_{kind}"]),
                              dtype, "inout", shape=(1,), low=-span, high=span, grid_bits=3 if dtype == "float32" else 0)
        w.emit(f"wp.atomic_{kind}({overall}, 0, {score.src})")
        w.note_bound(overall, span + score.mag)
        w.feature(f"best over all elements (atomic_{kind})")


def deposit(w: KernelWriter, loads: list[str], dtype: str) -> None:
    """Particle-to-grid transfer, as particle-in-cell and MPM codes write it: each particle (a
    normalised position in [0, 1), scaled by the grid's resolution, `grid.shape[0] - 1`) splits its
    value between the two grid nodes around it with linear (tent) weights, `grid[c] += (1 - t) v` and
    `grid[c + 1] += t v` by atomic adds, often through a `@wp.func` that returns nothing; the weights
    alone are often deposited too, the normaliser that turns the sums into averages. The grid has a
    node per particle and grows with the launch, so a bench-size run keeps about one particle per
    node (a grid of fixed size would take millions of atomics on a few addresses). Positions lie on a
    1/128 grid and values on a 1/8 grid: at check size every weight and product is exact, and so is
    every sum, in any order."""
    if dtype != "float32" or len(w.dim) != 1:  # the weights are fractions of a cell; particles a list
        group_sums(w, loads, dtype)
        return
    pos = w.add_array(w.rng.choice(["pos", "x_norm", "particle_x"]), "float32", "input", low=0.0,
                      high=1.0 - 1.0 / 128, grid_bits=7)
    x = w.load(pos)
    value = _value(w, loads, dtype)
    if not IDENTIFIER.fullmatch(value.src):  # split between two nodes: computed once
        value = w.assign(value, "v")
    grid = w.add_array(w.rng.choice(["grid", "node_mass", "rho_grid"]), dtype, "output")
    weights = w.add_array(w.rng.choice(["node_weight", "weight_sum"]), dtype, "output") \
        if w.rng.random() < 0.5 else None
    fx, c, t = w.fresh("fx"), w.fresh("c"), w.fresh("t")
    w.emit(f"{fx} = {x.src} * float({grid}.shape[0] - 1)")
    w.emit(f"{c} = int({fx})" if w.rng.random() < 0.5 else f"{c} = int(wp.floor({fx}))")
    w.emit(f"{t} = {fx} - float({c})")
    helper = None
    if w.rng.random() < 0.6:
        helper = f"{w.name}_{w.rng.choice(['deposit', 'splat', 'scatter_to_node'])}"
        w.add_helper(f"@wp.func\ndef {helper}(grid: wp.array(dtype=float), node: int, weight: float, value: float):\n"
                     f"    wp.atomic_add(grid, node, weight * value)", helper)
        w.feature("@wp.func helper returning nothing (an atomic deposit)")

    def scatter(target: str, node: str, weight: str, v: str) -> None:
        if helper:
            w.emit(f"{helper}({target}, {node}, {weight}, {v})")
            return
        product = weight if v == "1.0" else f"{weight if weight == t else f'({weight})'} * {v}"
        w.emit(f"wp.atomic_add({target}, {node}, {product})")
    scatter(grid, c, f"1.0 - {t}", value.src)
    scatter(grid, f"{c} + 1", t, value.src)
    w.note_bound(grid, w.dim[0] * value.mag)
    if weights:
        scatter(weights, c, f"1.0 - {t}", "1.0")
        scatter(weights, f"{c} + 1", t, "1.0")
        w.note_bound(weights, float(w.dim[0]))
        w.feature("weights deposited beside the values")
    w.feature("particle-to-grid deposit (linear weights)")


# One table entry per pattern of atomics, as kernels use them.
ATOMIC_FORMS = {
    "histogram": histogram,
    "group sums": group_sums,
    "moments": moments,
    "extremes per group": extremes_per_group,
    "budget": budget,
    "best so far": best_so_far,
    "deposit": deposit,
}

# The forms one pass gathers together, as data: a distribution's histogram beside its moments, and a
# segmented reduction's sums beside the same segments' extremes, a population's best beside its
# totals. A stock drawn down or a deposit to a grid is a kernel's purpose on its own.
COMPANIONS: dict[str, tuple[str, ...]] = {
    "histogram": ("moments",),
    "moments": ("histogram",),
    "group sums": ("extremes per group",),
    "extremes per group": ("group sums",),
    "best so far": ("moments",),  # a population's best beside its total score (a swarm's mean fitness)
}
COMPANION_SHARE = 0.7  # of kernels whose form has companions: two forms


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    if claims.chooses_claims(seed):
        return claims.generate(rng, name, seed)
    if searches.chooses_search(seed):
        return searches.generate(rng, name, seed)
    if rng.random() < 0.25:
        w = KernelWriter(rng, name, "atomic", seed, (rng.choice([64, 128, 256, 512]),))
        float64_accumulation(rng, w)
        return w.finish("Atomic float64 accumulation kernel")
    # a quarter over an image or a grid (`i, j = wp.tid()`): a histogram of pixels, sums per region
    dim = (rng.choice([8, 16]), rng.choice([16, 32])) if rng.random() < 0.25 else (rng.choice([64, 128, 256, 512]),)
    w = KernelWriter(rng, name, "atomic", seed, dim)
    skipped = False  # inactive elements already return early: no second flag below
    if len(dim) == 1 and rng.random() < 0.15:
        skipped = early_return(w) is None
    dtype = rng.choice(["float32", "float32", "int32"])
    if dtype == "float32":
        loads = add_inputs(w, "float32", rng.randint(1, 2), low=-4.0, high=4.0, grid_bits=3)
    else:
        loads = add_inputs(w, "int32", rng.randint(1, 2), low=-50, high=50, grid_bits=0)
    # statistics wanted together are gathered in one pass over the data: a form, or two that describe
    # the same values together (COMPANIONS); never unrelated ones side by side (session 56)
    forms = [rng.choice(list(ATOMIC_FORMS))]
    if forms[0] in COMPANIONS and rng.random() < COMPANION_SHARE:
        forms.append(rng.choice(COMPANIONS[forms[0]]))
    if len(dim) == 1 and "best so far" not in forms and rng.random() < 0.3 and not skipped:
        # only the elements a flag marks contribute (particles in contact, live cells), as masked
        # reductions do: the accumulation sits under the flag's test
        flags = w.add_array(rng.choice(["active", "mask", "valid", "alive"]), "int32", "input", low=0, high=1,
                            grid_bits=0)
        with w.block(f"if {w.load(flags).src} != 0:"):
            for form in forms:
                ATOMIC_FORMS[form](w, w.inputs_read(loads) or loads, dtype)
        w.feature("masked accumulation (a flag per element)")
    else:
        # a later statistic is of the values an earlier one gathered (their sum beside their
        # histogram), not of another input
        for form in forms:
            ATOMIC_FORMS[form](w, w.inputs_read(loads) or loads, dtype)
    w.feature(dtype)
    return w.finish("Atomic-update kernel")
