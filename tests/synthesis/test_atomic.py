"""The atomic category's forms do what their names say, checked on their own kernels run in Python
(tests/synthesis/python_run.py): a record kept with the old value an atomic returns, a float64
objective with its density sensitivity."""
from __future__ import annotations

import random

import numpy as np
import pytest

from synthesis.categories.atomic import ATOMIC_FORMS, float64_accumulation
from synthesis.exprgen import KernelWriter
from tests.synthesis.python_run import draw_inputs, run

N = 64


def writer(seed: int) -> KernelWriter:
    w = KernelWriter(random.Random(seed), "k_0123456789", "atomic", seed, (N,))
    w.output_update_share = w.intermediate_output_share = w.result_inline_share = 0.0
    return w


def form_kernel(form: str, seed: int):
    """ATOMIC_FORMS[form] alone over float inputs a and b."""
    w = writer(seed)
    loads = [w.add_array(h, "float32", "input", low=-4.0, high=4.0, grid_bits=3) for h in ("a", "b")]
    ATOMIC_FORMS[form](w, loads, "float32")
    return w.finish("test")


def best_so_far(seed: int):
    return form_kernel("best so far", seed)


@pytest.mark.parametrize("seed", range(12))
def test_a_record_keeps_the_best_score_and_reports_what_beat_it(seed):
    spec = best_so_far(seed)
    inputs = draw_inputs(spec, seed)
    got = run(spec, inputs)
    record, *others = (a.name for a in spec.args if a.role == "inout")
    overall = [n for n in others if n.startswith(("global_", "overall_"))]
    reached = [n for n in others if n in ("best_at", "best_param", "argbest")]
    keep_max = "kept (max)" in spec.description
    old, score = inputs[record], inputs["a"]
    better = score > old if keep_max else score < old
    np.testing.assert_array_equal(got[record], np.maximum(old, score) if keep_max else np.minimum(old, score))
    (out,) = (a for a in spec.args if a.role == "output")
    if "new-record flag" in spec.description:
        np.testing.assert_array_equal(got[out.name], better.astype(np.int64))
    else:
        np.testing.assert_array_equal(got[out.name], np.where(better, np.abs(score - old), 0.0))
    assert 0 < better.sum() < N  # some threads beat the record, some do not
    if reached:  # where the new best was scored, kept beside it; left as it was elsewhere
        np.testing.assert_array_equal(got[reached[0]], np.where(better, inputs["b"], inputs[reached[0]]))
    if overall:  # the best over all elements: the shared slot's start or the best score, whichever wins
        (name,) = overall
        pick = max if keep_max else min
        assert got[name][0] == pick(inputs[name][0], pick(score))


def test_a_thread_takes_no_atomic_on_an_element_it_alone_owns():
    """Session 55: `old = wp.atomic_max(best, tid, score)` (36% of atomic kernels) took an atomic on a slot
    no other thread touches. An atomic in this category targets a slot threads share: a constant, a
    group, a bin, a node, a table entry."""
    import ast

    from synthesis.categories import generate

    for seed in range(300):
        spec = generate("atomic", seed)
        tree = ast.parse(spec.source)
        fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.decorator_list
                  and "kernel" in ast.unparse(n.decorator_list[0]))
        launch = {t.id for s in fn.body if isinstance(s, ast.Assign) and "wp.tid()" in ast.unparse(s.value)
                  for t in ast.walk(s.targets[0]) if isinstance(t, ast.Name)}
        for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call)):
            name = ast.unparse(call.func)
            if name.startswith("wp.atomic_") and name != "wp.atomic_exch" and len(call.args) >= 3:
                index = [ast.unparse(a) for a in call.args[1:-1]]
                assert sorted(index) != sorted(launch), f"{ast.unparse(call)}\n{spec.source}"


def test_each_way_of_reporting_a_record_is_drawn():
    sources = [best_so_far(seed) for seed in range(40)]
    assert any("new-record flag" in s.description for s in sources)
    assert any("wp.where(" in s.source and "new-record flag" not in s.description for s in sources)
    assert any("wp.max(" in s.source for s in sources)


def float64_spec_with(*features: str, without: tuple[str, ...] = ()):
    """The first float64 accumulation (over every thread: no early return) with every one of `features`
    and none of `without`, and its seed."""
    for seed in range(3000):
        w = writer(seed)
        float64_accumulation(random.Random(seed), w)
        text = " ".join(w.features)
        if all(f in text for f in features) and not any(f in text for f in without + ("early return",)):
            return w.finish("test"), seed
    raise AssertionError(f"no float64 accumulation with {features!r}")


def float64_run_with(*features: str, without: tuple[str, ...] = ()):
    """That kernel run: its inputs, outputs, scalar parameters and density array."""
    spec, seed = float64_spec_with(*features, without=without)
    inputs = draw_inputs(spec, seed)
    scalars = {a.name: a.value for a in spec.args if a.role == "scalar"}
    rho = next(inputs[n] for n in ("density", "rho", "fraction", "phi") if n in inputs)
    return inputs, run(spec, inputs), scalars, rho


def test_a_penalised_objective_writes_its_density_sensitivity():
    inputs, got, scalars, rho = float64_run_with("density sensitivity")
    energy = next(inputs[n] for n in ("energy", "strain_energy", "work") if n in inputs)
    sens = next(got[n] for n in ("sensitivity", "dc_drho", "grad_rho") if n in got)
    p, ratio = scalars["penal"], next(scalars[n] for n in ("emin_ratio", "min_ratio") if n in scalars)
    fits = [np.allclose(sens, -p * (1 - ratio) * np.maximum(rho, floor) ** (p - 1) * energy, rtol=1e-12, atol=0)
            for floor in (0.0625, 0.125, 0.001)]  # the density floor the form drew
    assert any(fits) and np.ptp(sens) > 0


@pytest.mark.parametrize("graded", [False, True])
def test_a_mass_sum_can_carry_its_first_moment(graded):
    """The first moment sums each cell's centre times its mass: its density times the cell volume
    passed by value, or (a graded mesh) its own volume from an array."""
    inputs, got, scalars, rho = float64_run_with("centre of mass", *(["a volume per cell"] if graded else []),
                                                 without=() if graded else ("a volume per cell",))
    if graded:
        cell = next(inputs[n] for n in ("cell_volumes", "volumes", "dV") if n in inputs)
        assert len(np.unique(cell)) > 1
    else:
        cell = next(scalars[n] for n in ("cell_volume", "dv", "voxel_size") if n in scalars)
    dx = next(scalars[n] for n in ("dx", "spacing", "h") if n in scalars)
    moment = next(got[n] for n in ("moment", "first_moment", "mass_x") if n in got)
    centres = (np.arange(N) + 0.5) * dx
    assert moment[0] == pytest.approx(float(np.sum(centres * rho * cell)), rel=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_a_deposit_splits_each_value_between_the_two_nodes_around_its_particle_by_tent_weights(seed):
    """Run with one particle's inputs kept and the others' values zero (every value form is zero at a
    zero input), the grid holds that particle's value split (1 - t, t) between nodes c and c + 1
    around its normalised position times the grid's resolution (its node count less one);
    the full run's grid is the sum of those, and the weight array (if any) the tent weights alone."""
    spec = form_kernel("deposit", seed)
    inputs = draw_inputs(spec, seed)
    got = run(spec, inputs)
    pos = next(a.name for a in spec.args if a.name in ("pos", "x_norm", "particle_x"))
    grid = next(a.name for a in spec.args if a.name in ("grid", "node_mass", "rho_grid"))
    x = inputs[pos] * (len(got[grid]) - 1)  # normalised positions in node units
    cell, t = np.floor(x).astype(int), x - np.floor(x)
    total = np.zeros_like(got[grid])
    for k in range(N):
        alone = {name: (v if name == pos else np.where(np.arange(N) == k, v, 0.0)) for name, v in inputs.items()}
        one = run(spec, alone)[grid]
        value = one.sum()
        want = np.zeros_like(one)
        want[cell[k]] += (1.0 - t[k]) * value
        want[cell[k] + 1] += t[k] * value
        np.testing.assert_allclose(one, want, atol=1e-12)
        total += one
    np.testing.assert_allclose(got[grid], total, atol=1e-9)
    assert np.count_nonzero(got[grid]) > 4
    weights = next((a.name for a in spec.args if a.name in ("node_weight", "weight_sum")), None)
    if weights is not None:
        want = np.zeros_like(got[weights])
        np.add.at(want, cell, 1.0 - t)
        np.add.at(want, cell + 1, t)
        np.testing.assert_array_equal(got[weights], want)


def float64_reduction_run(feature: str):
    """The first float64 reduction with `feature` (no early return), run: its spec, inputs, outputs and
    scalar parameters."""
    spec, seed = float64_spec_with(feature)
    inputs = draw_inputs(spec, seed)
    return spec, inputs, run(spec, inputs), {a.name: a.value for a in spec.args if a.role == "scalar"}


@pytest.mark.parametrize("feature", ["dot product of two fields", "mean absolute error", "Huber loss"])
def test_a_float64_reduction_sums_numpys_terms(feature):
    """Session 47's float64 reductions: the slots hold, between them, the sum of numpy's term per element
    (u f; |x - t|; 0.5 e^2 within delta, delta (|e| - delta / 2) outside), over the count or times its
    reciprocal where the kernel takes one, and a per-element term kept as float32 is that term."""
    spec, inputs, got, scalars = float64_reduction_run(feature)
    arrays = [inputs[a.name].astype(np.float64) for a in spec.args if a.role == "input"]
    if feature.startswith("dot"):
        term = arrays[0] * arrays[1]
    else:
        err = arrays[0] - arrays[1]
        if feature == "mean absolute error":
            term = np.abs(err)
        else:
            delta = next(v for n, v in scalars.items() if n in ("delta", "huber_delta", "threshold"))
            term = np.where(np.abs(err) <= delta, 0.5 * err * err, delta * (np.abs(err) - 0.5 * delta))
            assert (np.abs(err) <= delta).any() and (np.abs(err) > delta).any()  # both branches taken
    for name, v in scalars.items():
        if name in ("count", "normalization"):
            term = term / v
        elif name in ("inv_count", "inv_n"):
            term = term * v
    total = next(got[n] for n in ("loss", "total", "objective", "accum", "compliance", "work", "dot") if n in got)
    assert float(np.sum(total)) == pytest.approx(float(term.sum()), rel=1e-12)
    kept = next((got[n] for n in ("per_cell", "cell_term", "cell_value") if n in got), None)
    if kept is not None:
        np.testing.assert_allclose(kept, term.astype(np.float32), rtol=1e-6)
    assert np.ptp(term) > 0


def test_the_float64_kernels_the_reduction_stream_leaves_alone_keep_their_draws(monkeypatch):
    """Every float64 accumulation that is not one of session 47's reductions draws exactly what it draws
    with the stream switched off."""
    from synthesis.categories import atomic

    new = ("dot product of two fields", "mean absolute error", "Huber loss")

    def drawn(seed):
        w = writer(seed)
        float64_accumulation(random.Random(seed), w)
        return w.finish("test")
    specs = {seed: drawn(seed) for seed in range(120)}
    kept = {seed: s.source for seed, s in specs.items() if not any(f in s.description for f in new)}
    assert 0 < len(specs) - len(kept) < len(specs) // 2
    monkeypatch.setattr(atomic, "F64_REDUCTIONS", {None: 1.0})
    assert {seed: drawn(seed).source for seed in kept} == kept


def test_a_volume_per_cell_survives_the_generators_checks():
    from synthesis.categories import generate

    assert sum("a volume per cell" in generate("atomic", seed).description for seed in range(1500)) >= 3


@pytest.mark.parametrize("seed", range(16))
def test_a_float_histogram_clamps_its_bin_at_both_ends(seed):
    """A value below the first bin lands in it (bin 0), one above the last in the last: run over
    inputs beyond the bins' span on both sides, every count stays in range and they sum to n."""
    spec = form_kernel("histogram", seed)
    counts = next(a.name for a in spec.args if a.role == "output" and a.dtype == "int32")
    inputs = draw_inputs(spec, seed)
    inputs["a"] = np.linspace(-12.0, 12.0, N)  # beyond [-4, 4] both ways (exact: a step of 24/63)
    outputs = run(spec, inputs)
    got = outputs[counts]
    if "joint histogram" in spec.description:  # a's bin is the row: count a's bins over b's
        n = int(round(len(got) ** 0.5))
        got = got.reshape(n, n).sum(axis=1)
    assert got.sum() == N
    if "histogram of a magnitude" in spec.description:  # both tails past 4 land in the last bin
        assert got[-1] >= 2 * (N // 3) - 2
        return
    assert got[0] >= N // 3 and got[-1] >= N // 3 - 1


def _forms_drawn(seeds, monkeypatch) -> list[tuple[object, list[str]]]:
    """(spec, the ATOMIC_FORMS entries its last draw called, in order) per seed."""
    from synthesis.categories import atomic, generate

    held: list[str] = []
    for form, build in list(atomic.ATOMIC_FORMS.items()):
        def recording(w, loads, dtype, form=form, build=build):
            held.append(form)
            return build(w, loads, dtype)
        monkeypatch.setitem(atomic.ATOMIC_FORMS, form, recording)
    drawn = []
    for seed in seeds:
        held.clear()
        spec = generate("atomic", seed)
        drawn.append((spec, list(held)))
    return drawn


def test_a_kernel_gathers_one_statistic_or_two_that_describe_the_same_values(monkeypatch):
    """Session 56: 75% of the atomic kernels of this stream fused two or three unrelated forms (a stock
    drawn down beside a histogram and a per-element best). Two forms share a kernel only as
    companions (COMPANIONS: a histogram beside its moments, a segment's sums beside its extremes)."""
    from synthesis.categories.atomic import COMPANIONS

    drawn = [(spec, forms) for spec, forms in _forms_drawn(range(400), monkeypatch) if forms]
    pairs = 0
    for spec, forms in drawn:
        assert len(forms) <= 2, f"{forms}\n{spec.source}"
        if len(forms) == 2:
            assert forms[1] in COMPANIONS.get(forms[0], ()), f"{forms}\n{spec.source}"
            pairs += 1
    assert 0.3 * len(drawn) < pairs < 0.65 * len(drawn)


def test_a_sum_of_squares_squares_the_value_not_its_magnitude():
    """`wp.abs(x) * wp.abs(x)` is `x * x` written the long way round."""
    import re

    from synthesis.categories import generate

    twice = re.compile(r"wp\.abs\((\w+)\) \* wp\.abs\(\1\)")
    for seed in range(600):
        spec = generate("atomic", seed)
        assert not twice.search(spec.source), spec.source


def form_kernel_with(form: str, feature: str):
    for seed in range(200):
        spec = form_kernel(form, seed)
        if feature in spec.description:
            return spec, seed
    raise AssertionError(f"no {form} kernel with {feature!r}")


def test_a_joint_histogram_counts_each_pair_of_values_in_its_cell():
    spec, seed = form_kernel_with("histogram", "joint histogram")
    inputs = draw_inputs(spec, seed)
    counts = next(a.name for a in spec.args if a.role == "output")
    got = run(spec, inputs)[counts]
    n = int(round(len(got) ** 0.5))
    edges = np.linspace(-4.0, 4.0, n + 1)
    want, _, _ = np.histogram2d(inputs["a"], inputs["b"], bins=[edges, edges])
    np.testing.assert_array_equal(got.reshape(n, n), want)


def test_weighted_sums_per_group_are_a_weighted_means_numerator_and_denominator():
    spec, seed = form_kernel_with("group sums", "weighted sums per group")
    inputs = draw_inputs(spec, seed)
    got = run(spec, inputs)
    label = next(a.name for a in spec.args if a.role == "index")
    weight = next(a.name for a in spec.args if a.role == "input" and a.name not in ("a", "b"))
    moment, total = (a.name for a in spec.args if a.role == "output")
    want_moment, want_total = np.zeros_like(got[moment]), np.zeros_like(got[total])
    a = inputs["a"]
    value = np.abs(a) if "magnitudes accumulated" in spec.description else \
        np.maximum(a, 0.0) if "positive parts accumulated" in spec.description else a
    np.add.at(want_moment, inputs[label], inputs[weight] * value)
    np.add.at(want_total, inputs[label], inputs[weight])
    np.testing.assert_array_equal(got[moment], want_moment)
    np.testing.assert_array_equal(got[total], want_total)
    assert (inputs[weight] > 0).all()


def test_bounds_per_group_hold_each_groups_extent_along_both_coordinates():
    spec, seed = form_kernel_with("extremes per group", "bounds per group")
    inputs = draw_inputs(spec, seed)
    got = run(spec, inputs)
    label = next(a.name for a in spec.args if a.role == "index")
    for coordinate in ("a", "b"):
        for kind, at in (("min", np.minimum.at), ("max", np.maximum.at)):
            name = f"{kind}_{coordinate}"
            want = inputs[name].copy()
            at(want, inputs[label], inputs[coordinate])
            np.testing.assert_array_equal(got[name], want)


@pytest.mark.parametrize("seed", range(24))
def test_global_moments_are_the_statistics_they_are_named_for(seed):
    """Each one-slot output is the named statistic of its values: a dot product, a norm, a total, a
    sum of squares, a peak or trough, or the positive values' sum and count."""
    spec = form_kernel("moments", seed)
    inputs = draw_inputs(spec, seed)
    got = run(spec, inputs)
    read = [inputs[n] for n in ("a", "b") if n in inputs]  # an input no statistic reads is not an argument
    a, b = read if len(read) == 2 else (read[0], read[0])
    x = read[0]
    want = {"dot": a * b, "inner": a * b, "sum_xy": a * b, "norm_sq": b * b, "sum_bb": b * b, "self_dot": b * b,
            "l1": abs(x), "sum_abs": abs(x), "abs_total": abs(x), "l2_sq": x * x, "sum_sq": x * x, "sum_x2": x * x,
            "energy": x * x, "positive_total": np.maximum(x, 0), "sum_pos": np.maximum(x, 0),
            "gain_total": np.maximum(x, 0), "n_positive": (x > 0), "pos_count": (x > 0)}
    checked = 0
    for arg in spec.args:
        if arg.name in want:
            assert got[arg.name][0] == want[arg.name].sum(), (arg.name, spec.source)
        elif arg.name in ("peak", "max_value", "max_abs", "linf"):
            values = abs(x) if arg.name in ("max_abs", "linf") else x
            assert got[arg.name][0] == max(inputs[arg.name][0], values.max()), spec.source
        elif arg.name in ("trough", "min_value"):
            assert got[arg.name][0] == min(inputs[arg.name][0], x.min()), spec.source
        elif arg.name in ("total", "sum_x", "acc", "scaled_sum"):
            scale = next((a.value for a in spec.args if a.role == "scalar"), 1.0)
            assert got[arg.name][0] == (x * scale).sum(), spec.source
        else:
            continue
        checked += 1
    assert checked >= 1
