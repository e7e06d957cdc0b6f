"""Each loop form of control_flow computes what its name says.

A form is built into a kernel of its own over an input `a` (and `b`), and the kernel's Python body
is run over inputs the test chooses; the results are checked against the computation the form's
name promises, done here independently (a convolution, a polynomial, exp, sqrt, Kepler's equation,
a window's extremum, a count, a search).
"""
from __future__ import annotations

import math
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synthesis.categories import generate
from synthesis.categories.control_flow import LOOP_FORMS
from synthesis.exprgen import KernelWriter
from synthesis.sampled_run import _runnable_source, _Warp
from tests.synthesis.python_run import Shaped
from tests.synthesis.shares import assert_earlier_forms_kept

N = 64
SEEDS = st.integers(0, 2**32 - 1)
PROPERTY = settings(max_examples=12, deadline=None, derandomize=True)
A = [round(2 * math.sin(0.7 * k) * 64) / 64 for k in range(N)]  # on the inputs' 1/64 grid, in [-2, 2]
B = [round(1.5 * math.cos(0.3 * k) * 64) / 64 for k in range(N)]


def build(form: str, seed: int):
    """(the kernel holding only `form` over inputs a and b, its outputs' names, its coefficient
    tables' names)."""
    w = KernelWriter(random.Random(seed), "k", "control_flow", seed, (N,))
    w.output_update_share = 0.0  # the form's values as its formula gives them, not updated in place
    loads = [w.add_array(h, "float32", "input", low=-2.0, high=2.0) for h in ("a", "b")]
    before = {a.name for a in w.args}
    results = LOOP_FORMS[form](w, loads[:1] if form != "Newton square root" else loads)
    outputs = [w.add_array(r.hint, r.value.type, "output") for r in results]
    for name, r in zip(outputs, results):
        w.store(name, r.value)
    tables = [a.name for a in w.args if a.name not in before and a.role == "input"]
    return w.finish("test"), outputs, tables


def run(spec, inputs: dict[str, list[float]]) -> dict[str, list]:
    wp = _Warp()
    wp.tanh = math.tanh  # the stand-in models the calls multi-way conditionals make; loops call these too
    wp.atan2 = math.atan2
    names = {"wp": wp, "float": float, "int": int, "min": min, "max": max, "abs": abs}
    exec(compile(_runnable_source(spec), spec.name, "exec"), names)
    outputs = {a.name: [None] * N for a in spec.args if a.role == "output"}
    args = [a.value if a.role == "scalar" else outputs[a.name] if a.role == "output" else Shaped(inputs[a.name])
            for a in spec.args]
    for t in range(N):
        wp.current = (t,)
        names[spec.name](*args)
    return outputs


def table(length: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [rng.randint(-16, 16) / 16 for _ in range(length)]


def table_length(spec, name: str) -> int:
    return next(a.shape[0] for a in spec.args if a.name == name)


def clamped(k: int) -> int:
    return min(max(k, 0), N - 1)


@PROPERTY
@given(SEEDS)
def test_a_windowed_filter_is_the_convolution_of_the_taps_with_a_clamped_window(seed):
    check_filter(seed)


def check_filter(seed: int) -> None:
    """The taps times a window centred on the thread's element, the array's edge repeated past its ends,
    or (drawn aside) zero there."""
    spec, (out,), (taps,) = build("windowed filter", seed)
    coef = table(table_length(spec, taps), seed)
    r = len(coef) // 2
    got = run(spec, {"a": A, taps: coef})[out]
    zero = "zero outside the array" in spec.description

    def element(j: int) -> float:
        return (A[j] if 0 <= j < N else 0.0) if zero else A[clamped(j)]
    want = [sum(c * element(t + k - r) for k, c in enumerate(coef)) for t in range(N)]
    assert all(math.isclose(g, v, abs_tol=1e-12) for g, v in zip(got, want))


@PROPERTY
@given(SEEDS)
def test_a_horner_loop_evaluates_the_polynomial_and_its_derivative(seed):
    spec, outputs, (poly,) = build("Horner loop", seed)
    coef = table(table_length(spec, poly), seed)
    got = run(spec, {"a": A, poly: coef})
    d = len(coef) - 1
    # a table stored lowest power first is walked from its end: the same sum, read reversed
    highest_first = list(coef) if ", -1, -1)" not in spec.source else list(reversed(coef))
    coef = highest_first
    # a polynomial about a point x0 evaluates at x - x0
    centre = next((a.value for a in spec.args if a.role == "scalar"), None)
    if "about a point" in spec.description and centre is None:  # `t = a_v - 0.5` or `t = a_v + 0.5`
        sign, literal = re.search(r"^\s*t\w* = \S+ ([+-]) ([0-9.]+)$", spec.source, re.M).groups()
        centre = float(literal) if sign == "-" else -float(literal)
    points = [x - (centre or 0.0) for x in A]
    value = [sum(c * x ** (d - k) for k, c in enumerate(coef)) for x in points]
    assert all(math.isclose(g, v, abs_tol=1e-9) for g, v in zip(got[outputs[0]], value))
    if len(outputs) == 2:
        slope = [sum((d - k) * c * x ** (d - k - 1) for k, c in enumerate(coef[:-1])) for x in points]
        assert all(math.isclose(g, v, abs_tol=1e-9) for g, v in zip(got[outputs[1]], slope))


@PROPERTY
@given(SEEDS)
def test_a_series_approaches_its_function(seed):
    spec, (out,), _ = build("exp series", seed)
    got = run(spec, {"a": A})[out]
    terms = max(a.value for a in spec.args if a.role == "scalar") if any(a.role == "scalar" for a in spec.args) else None
    for x, g in zip(A, got):
        if "Taylor series (sin)" in spec.description:  # x - x^3/3! + ...: at least 6 terms, up to x^11
            assert abs(g - math.sin(x)) <= abs(x) ** 13 / math.factorial(13) + 1e-12, (x, g, terms)
        else:  # left once a term is below 1e-6 (or 1e-7) of the sum: the rest of the tail below that too
            stopped = 2e-6 * math.exp(x) if "stopped once a term is negligible" in spec.description else 0.0
            assert abs(g - math.exp(x)) <= 2 * abs(x) ** 6 / math.factorial(6) * math.exp(abs(x)) + stopped + 1e-12, \
                (x, g, terms)


def test_both_series_are_drawn():
    kinds = {"sin" if "Taylor series (sin)" in build("exp series", seed)[0].description else "exp" for seed in range(30)}
    assert kinds == {"sin", "exp"}


@PROPERTY
@given(SEEDS)
def test_a_newton_square_root_converges_to_the_root(seed):
    spec, (out, *beside), _ = build("Newton square root", seed)
    results = run(spec, {"a": A, "b": B})
    got = results[out]
    if "inverse of the root" in spec.description:  # what the root is wanted for, stored beside it
        assert all(math.isclose(r * g, 1.0, rel_tol=1e-9) for r, g in zip(results[beside[0]], got))
    if "unit direction by the root" in spec.description:  # (x, y) / sqrt(x^2 + y^2 + 0.25)
        for x, y, g in zip(results[beside[0]], results[beside[1]], got):
            assert math.isclose(x * x + y * y, 1.0 - 0.25 / (g * g), rel_tol=1e-4, abs_tol=1e-9)
    roots = {round(g, 9) ** 2 for g in got}
    assert len(roots) > N // 4  # the root of something that varies, over threads
    power = 3 if "Newton iteration (cube root)" in spec.description else 2  # the cube root variant
    for t, g in enumerate(got):
        radicands = {A[t] ** 2 + 1.0, abs(A[t]) + 0.5, abs(B[t]) + 0.5, B[t] ** 2 + 1.0,
                     A[t] ** 2 + B[t] ** 2 + 0.25}
        assert any(math.isclose(g ** power, s, rel_tol=1e-4) for s in radicands), (t, g)


@PROPERTY
@given(SEEDS)
def test_a_kepler_iteration_solves_keplers_equation(seed):
    spec, (out, *beside), _ = build("Kepler iteration", seed)
    results = run(spec, {"a": A})
    got = results[out]
    residuals = []
    for e in (0.125, 0.25, 0.5):  # the eccentricity the form drew: the one that fits
        residuals.append(max(abs(E - e * math.sin(E) - m) for E, m in zip(got, A)))
    assert min(residuals) < 1e-2 and max(residuals) > 1e-2
    e = (0.125, 0.25, 0.5)[residuals.index(min(residuals))]
    if "true anomaly from the eccentric anomaly" in spec.description:  # tan(nu/2) = sqrt((1+e)/(1-e)) tan(E/2)
        for nu, big_e in zip(results[beside[0]], got):
            assert math.isclose(math.cos(nu), (math.cos(big_e) - e) / (1.0 - e * math.cos(big_e)), abs_tol=1e-6)
    if "orbital radius from the eccentric anomaly" in spec.description:  # r = a (1 - e cos E), a one of three
        ratios = {round(r / (1.0 - e * math.cos(big_e)), 6) for r, big_e in zip(results[beside[0]], got)}
        assert len(ratios) == 1 and ratios <= {1.0, 1.5, 2.5}


@PROPERTY
@given(SEEDS)
def test_a_running_extremum_is_the_extremum_of_the_window_ahead_and_where_it_is(seed):
    check_running_extremum(seed)


def check_running_extremum(seed: int) -> None:
    """The extremum of the window ahead of the thread (offsets 0..w-1) or, drawn aside, of the window
    centred on it (offsets -h..h, from the thread's own element on), and the offset of the first of
    equal extremes."""
    spec, outputs, _ = build("running maximum", seed)
    got = run(spec, {"a": A})
    pick = max if "max" in outputs[0] else min
    centred = "window centred on the thread" in spec.description
    offsets = [[0] + list(range(-h, h + 1)) for h in (1, 2, 3)] if centred else [list(range(w)) for w in (4, 5, 8)]
    window_of = next(o for o in offsets if all(got[outputs[0]][t] == pick(A[clamped(t + k)] for k in o) for t in range(N)))
    assert not centred or any(A[clamped(t - 1)] != got[outputs[0]][t] == pick(A[clamped(t + k)] for k in window_of)
                              for t in range(N))  # a neighbour behind the thread counts
    if len(outputs) == 2:
        for t in range(N):
            window = [A[clamped(t + k)] for k in window_of]
            assert got[outputs[1]][t] == window_of[window.index(pick(window))]  # the first of equal extremes


@PROPERTY
@given(SEEDS)
def test_a_window_count_counts_the_elements_past_the_threshold(seed):
    spec, (out,), _ = build("count over a window", seed)
    got = run(spec, {"a": A})[out]
    candidates = []
    for width in (3, 5, 7):
        for t_ in (-1.0, -0.5, 0.0, 0.25, 0.5, 1.0):
            for test in (lambda v, t_=t_: v > t_, lambda v, t_=t_: v >= t_, lambda v, t_=t_: v < t_):
                if all(g == sum(1 for k in range(width) if test(A[clamped(t + k - width // 2)])) for t, g in enumerate(got)):
                    candidates.append((width, t_))
    assert candidates and len(set(got)) > 1


@PROPERTY
@given(SEEDS)
def test_a_search_stops_at_the_first_element_past_the_threshold(seed):
    check_search(seed)


def check_search(seed: int) -> None:
    """The first offset ahead whose element is past a threshold (or, drawn aside, past the thread's own
    element, from the next one on: the next greater element), the window's width where none is; the
    element found beside it where the kernel stores it (0 where none is)."""
    spec, outs, _ = build("search with break", seed)
    results = run(spec, {"a": A})
    got = results[outs[0]]
    limit = max(got)  # the width: returned where no element is past the threshold
    start = 1 if "the next element ahead" in spec.description else 0
    step = -1 if "searched back over the window behind" in spec.description else 1

    def first(t: int, past) -> int:
        return next((k for k in range(start, limit) if past(A[clamped(t + step * k)], A[t])), limit)

    if start:
        tests = [lambda v, own: v > own, lambda v, own: v < own]
    else:
        tests = [past for threshold in (0.5, 1.0)
                 for past in (lambda v, own, c=threshold: v > c, lambda v, own, c=threshold: v < -c)]
    fits = [past for past in tests if all(g == first(t, past) for t, g in enumerate(got))]
    assert len(fits) >= 1 and len(set(got)) > 2
    if len(outs) == 2:  # the element found
        assert "the value found beside" in spec.description
        assert results[outs[1]] == [A[clamped(t + k)] if k < limit else 0.0 for t, k in enumerate(got)]


def test_a_search_back_finds_the_nearest_element_behind_past_the_threshold():
    """Drawn aside (its own stream): the search runs over the window behind the thread, the steps back
    to the nearest element past the threshold."""
    seeds = [s for s in range(200) if "searched back" in build("search with break", s)[0].description]
    assert len(seeds) >= 5
    for seed in seeds[:5]:
        check_search(seed)


@PROPERTY
@given(SEEDS)
def test_a_flag_marks_the_windows_holding_an_element_past_the_threshold(seed):
    spec, (out,), _ = build("flag with break", seed)
    assert "= bool(False)" in spec.source  # a flag a dynamic loop may set (Warp refuses `= False`)
    got = run(spec, {"a": A})[out]
    bound = re.search(r"range\((\w+)\)", spec.source).group(1)  # the width, or the parameter holding it
    width = int(bound) if bound.isdigit() else next(a.value for a in spec.args if a.name == bound)

    def crossing(t: int, past) -> bool:
        return any(past(A[clamped(t + k)]) for k in range(width))

    marks = "1 if" in spec.source
    fits = [all(g == ((1 if crossing(t, past) else 0) if marks else (A[t] if crossing(t, past) else 0.0))
                for t, g in enumerate(got))
            for threshold in (0.5, 0.75) for past in (lambda v, c=threshold: v > c, lambda v, c=threshold: v < -c)]
    assert sum(fits) >= 1 and 0 < got.count(0) < len(got)  # some windows cross, some do not


@PROPERTY
@given(SEEDS)
def test_a_sum_with_continue_adds_only_one_sign(seed):
    check_continue(seed)


def check_continue(seed: int) -> None:
    """The sum of a window's elements of one sign, or (drawn aside) their mean (0 where none is)."""
    spec, (out,), _ = build("sum with continue", seed)
    got = run(spec, {"a": A})[out]
    mean = "the mean of the elements kept" in spec.description

    def kept(t: int, w: int, sign: int, zeros: bool) -> list[float]:  # zeros: skipped by `< 0.0`, kept
        return [v for v in (A[clamped(t + k - w // 2)] for k in range(w)) if sign * v > 0 or (zeros and v == 0)]
    widths = [w for w in (3, 5, 7) for sign in (1, -1) for zeros in (False, True)
              if all(math.isclose(g, sum(kept(t, w, sign, zeros)) / (max(len(kept(t, w, sign, zeros)), 1) if mean else 1),
                                  abs_tol=1e-12) for t, g in enumerate(got))]
    assert widths


@PROPERTY
@given(SEEDS)
def test_bisection_brackets_the_square_root(seed):
    spec, (out,), _ = build("bisection while", seed)
    got = run(spec, {"a": A})[out]
    root = (lambda v: v ** (1.0 / 3.0)) if "cube root" in spec.description else math.sqrt
    assert all(abs(g - root(abs(x))) <= 2.0 / 2 ** 6 for g, x in zip(got, A))


def test_both_horner_variants_and_both_bisection_roots_are_drawn():
    horner = {("about a point" in d, "length (.shape)" in d)
              for d in (build("Horner loop", seed)[0].description for seed in range(60))}
    assert {True} == {h[0] for h in horner} & {True} and {True} == {h[1] for h in horner} & {True}
    roots = {"cube" if "cube root" in build("bisection while", seed)[0].description else "square" for seed in range(30)}
    assert roots == {"cube", "square"}


@PROPERTY
@given(SEEDS)
def test_a_recurrent_window_runs_over_the_history_oldest_first(seed):
    check_recurrent(seed)


def check_recurrent(seed: int) -> None:
    """h = h + decay (x - h) (an average) or tanh(decay h + gain x) over the history, oldest first, from
    zero or (drawn aside) from the oldest element; and beside an average, drawn aside, its exponentially
    weighted variance, var = (1 - decay) (var + decay d^2) with d the deviation before the step."""
    spec, outs, _ = build("recurrent window", seed)
    results = run(spec, {"a": A})
    got = results[outs[0]]
    seeded = "started at the oldest element" in spec.description
    fits = []  # the (steps, decay, gain) whose recurrence gives the kernel's values
    for steps in (3, 4, 6, 8):
        for decay in (0.25, 0.5, 0.75):
            # a tanh cell, or a leaky one moving its state part way (leak) toward the cell's value
            updates = [(None, lambda h, x, d=decay: h + d * (x - h))] + [
                ((gain, leak), lambda h, x, d=decay, g=gain, r=leak: (1.0 - r) * h + r * math.tanh(d * h + g * x))
                for gain in (1.0, 0.5, 1.5, 2.0) for leak in (1.0, 0.25, 0.5)]
            for gain, update in updates:
                want, variances = [], []
                for t in range(N):
                    h = A[clamped(t - steps + 1)] if seeded else 0.0
                    var = 0.0
                    for k in range(1 if seeded else 0, steps):
                        x = A[clamped(t + k - steps + 1)]
                        var = (1.0 - decay) * (var + decay * (x - h) ** 2)
                        h = update(h, x)
                    want.append(h)
                    variances.append(var)
                if all(math.isclose(g, v, abs_tol=1e-12) for g, v in zip(got, want)):
                    fits.append((steps, decay, gain))
                    if len(outs) == 2 and gain is None:
                        assert all(math.isclose(g, v, abs_tol=1e-12) for g, v in zip(results[outs[1]], variances))
                        assert max(variances) > 0.0
    # a saturated tanh forgets its oldest inputs: more than one history length may give the same
    # values, but the kernel's own is among them
    bounds = [f"for k in range({'1, ' if seeded else ''}{steps}):" for steps, _, _ in fits]
    assert any(b in spec.source for b in bounds), (spec.source, fits)
    assert (len(outs) == 2) == ("weighted variance" in spec.description)
    leaks = {gain[1] for _, _, gain in fits if gain is not None}
    assert not leaks or (leaks == {1.0}) == ("leaky integration" not in spec.description)


@pytest.mark.parametrize("form,feature,check", [
    ("search with break", "the next element ahead", check_search),
    ("search with break", "the value found beside", check_search),
    ("recurrent window", "started at the oldest element", check_recurrent),
    ("recurrent window", "exponentially weighted variance", check_recurrent),
    ("windowed filter", "zero outside the array", check_filter),
    ("sum with continue", "the mean of the elements kept", check_continue),
    ("recurrent window", "leaky integration", check_recurrent),
    ("running maximum", "window centred on the thread", check_running_extremum)])
def test_each_form_drawn_aside_is_checked(form, feature, check):
    """Session 47's forms (a stream of their own), each in a kernel of its own, through the checks above."""
    seed = next(s for s in range(2000) if feature in build(form, s)[0].description)
    check(seed)


def test_loop_temporaries_never_take_an_arguments_name():
    """An input named like a loop temporary (`v`, `j`, `mid`) gets no local of its name: Warp refuses to
    assign to a parameter's symbol."""
    import ast

    for form in LOOP_FORMS:
        for seed in range(6):
            w = KernelWriter(random.Random(seed), "k", "control_flow", seed, (N,))
            w.output_update_share = 0.0  # the form's values as its formula gives them, not updated in place
            loads = [w.add_array(h, "float32", "input", low=-2.0, high=2.0) for h in ("v", "j", "mid")]
            for r in LOOP_FORMS[form](w, loads):
                w.store(w.add_array(r.hint, r.value.type, "output"), r.value)
            fn = ast.parse(w.finish("test").source).body[-1]
            stored = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            assert not stored & {a.arg for a in fn.args.args}, (form, seed)


def test_a_solvers_trip_count_parameter_or_constant_bounds_only_its_loop():
    """An iteration count passed by value (`n_iter`) or named at module level (`ITERATIONS`) is read
    by the loop it bounds and nowhere else, and holds a small positive count."""
    import re

    from synthesis.categories import generate

    seen = set()
    for seed in range(200):
        spec = generate("control_flow", seed)
        for arg in spec.args:
            if arg.role == "scalar" and arg.name in ("n_iter", "iterations", "max_iter"):
                seen.add("parameter")
                uses = [line.strip() for line in spec.source.splitlines() if re.search(rf"\b{arg.name}\b", line)]
                assert len(uses) == 2 and re.fullmatch(rf"(for \w+ in range\({arg.name}\):|while \w+ < {arg.name}:)", uses[1]), uses
                assert 3 <= arg.value <= 10
        for name, value in re.findall(r"^((?:ITERATIONS|NUM_ITERS|SOLVER_ITERS)\w*) = wp\.constant\((\d+)\)", spec.source, re.M):
            seen.add("constant")
            uses = [line.strip() for line in spec.source.splitlines() if re.search(rf"\b{name}\b", line)]
            assert len(uses) == 2 and re.fullmatch(rf"(for \w+ in range\({name}\):|while \w+ < {name}:)", uses[1]), uses
            assert 3 <= int(value) <= 10
    assert seen == {"parameter", "constant"}


def test_the_loops_of_a_kernel_work_on_one_signal():
    """A kernel of several loop forms computes on the inputs its first loop read: its outputs are one
    computation (realism's output groups), not a square root of one input beside a series of another."""
    from synthesis.categories import generate
    from synthesis.normalize import parse_module
    from synthesis.realism import output_groups

    several = 0
    for seed in range(150):
        spec = generate("control_flow", seed)
        kernel = parse_module(spec.source).body[-1]
        several += spec.source.count("    for ") + spec.source.count("    while ") >= 2
        assert len(output_groups(kernel)) == 1, spec.source
    assert several > 50  # most kernels hold two or more loops


def test_the_control_flow_kernels_the_breadth_stream_leaves_alone_keep_their_draws(monkeypatch):
    """Every control-flow kernel without one of session 47's forms draws exactly what it draws when the
    stream keeps the earlier forms."""
    from synthesis.categories import control_flow

    new = ("the next element ahead", "the value found beside", "started at the oldest element",
           "exponentially weighted variance", "zero outside the array", "the mean of the elements kept")
    assert_earlier_forms_kept(monkeypatch, "control_flow", list(range(300)), control_flow, "breadth", new, 300 // 2)


def test_the_kernels_without_session_50s_forms_keep_their_draws(monkeypatch):
    """A centred window and a leaky cell come from streams of their own: a kernel that takes neither
    draws exactly what it draws with both switched off."""
    from synthesis.categories import control_flow

    drawn = {s: generate("control_flow", s) for s in range(200)}
    plain = {s: spec.source for s, spec in drawn.items()
             if "window centred on the thread" not in spec.description and "leaky integration" not in spec.description}
    assert 0 < len(plain) < len(drawn)
    monkeypatch.setattr(control_flow, "CENTRED_WINDOW_SHARE", 0.0)
    monkeypatch.setattr(control_flow, "LEAK_RATES", (0.0,))
    assert {s: generate("control_flow", s).source for s in plain} == plain


def test_a_windows_extremum_is_never_summed_over_launches():
    """A running maximum or minimum lies within its inputs' range: a sum of them over launches leaves it
    (and a window's extremum is no statistic people keep a running average of, naming.smoothed)."""
    summed = drawn = 0
    for seed in range(600):
        source = generate("control_flow", seed).source
        drawn += "window_m" in source
        summed += bool(re.search(r"^\s+window_m\w+\[[^\]]+\] (\+=|= (wp\.lerp|\(1\.0))", source, re.M))
    assert drawn >= 40 and summed == 0


def test_a_gcd_by_subtraction_starts_from_positive_terms():
    """`while a != b` subtracting the smaller from the larger never ends from a zero term: the form is
    drawn only where both terms are at least 1 (a signed numerator goes through `%`, which ends at 0)."""
    from synthesis.categories import generate

    subtracting = 0
    for seed in range(3000):
        spec = generate("control_flow", seed)
        if "greatest common divisor" not in spec.description:
            continue
        terms = [a for a in spec.args if a.name in ("num", "numer", "p", "den", "denom", "q")]
        if "by subtraction" in spec.description:
            subtracting += 1
            assert len(terms) == 2 and all(a.low >= 1 for a in terms), spec.source
    assert subtracting >= 5


@PROPERTY
@given(SEEDS)
def test_window_statistics_in_one_pass_are_the_windows_mean_variance_extremes_and_count(seed):
    """Each output of the one-pass form is the statistic its name says of one centred, clamped window:
    the mean, the variance about it (or its square root), the minimum and maximum (or their difference),
    the count past a threshold; every output of the kernel from the same window width."""
    spec, outs, _ = build("statistics in one pass", seed)
    got = run(spec, {"a": A})
    (half,) = {int(h) for h in re.findall(r"for k in range\(-(\d+), \d+\):", spec.source)}
    windows = [[A[clamped(t + k)] for k in range(-half, half + 1)] for t in range(N)]
    means = [sum(w) / len(w) for w in windows]
    variances = [sum(v * v for v in w) / len(w) - m * m for w, m in zip(windows, means)]
    want = {"local_mean": means, "mean_out": means, "local_var": variances, "variance": variances,
            "local_std": [math.sqrt(max(v, 0.0)) for v in variances],
            "window_lo": [min(w) for w in windows], "window_hi": [max(w) for w in windows],
            **dict.fromkeys(("local_range", "swing", "contrast"), [max(w) - min(w) for w in windows])}
    assert len(outs) >= 2
    for out in outs:
        if out == "count_out":
            counts = {tuple(sum(1 for v in w if test(v, level)) for w in windows)
                      for level in (-1.0, -0.5, 0.0, 0.25, 0.5, 1.0)
                      for test in (lambda v, c: v > c, lambda v, c: v >= c, lambda v, c: v < c)}
            assert tuple(got[out]) in counts, spec.source
            continue
        assert all(math.isclose(g, v, rel_tol=1e-9, abs_tol=1e-9) for g, v in zip(got[out], want[out])), spec.source
    assert len(re.findall(r"^    for ", spec.source, re.M)) == 1  # one loop gathers them all


def _window_extent(header: str) -> int:
    """The elements a window loop's header spans: `range(-h, h + 1)` 2h + 1, `range(n)` and `range(1, n)` n."""
    bounds = [int(b) for b in re.findall(r"-?\d+", header)]
    return bounds[1] - bounds[0] if bounds[0] < 0 else bounds[-1]


def test_the_window_loops_of_a_kernel_span_one_width():
    """Every loop of a kernel that reads along the thread's window (a filter, a count, a search, a
    history) spans as many elements as the others: one person's kernel has one window."""
    several = 0
    for seed in range(400):
        spec = generate("control_flow", seed)
        lines = spec.source.splitlines()
        extents = set()
        for n, line in enumerate(lines):
            header = re.fullmatch(r"    for k in range\(([^)]*)\):", line)
            if not header:
                continue
            body = "\n".join(lines[n + 1:n + 6])
            if re.search(r"\b(tid|j|k_?\w*) [+-] k\b", body) and re.fullmatch(r"[-\d, +]+", header.group(1)):
                extents.add(_window_extent(header.group(1)))
        several += len(extents) > 0 and sum(1 for l in lines if re.match(r"    for k in range", l)) >= 2
        assert len(extents) <= 1, spec.source
    assert several > 60


def test_no_two_loops_of_a_kernel_compute_one_statistic():
    """A count past a threshold, a search for the first element past one, a flag of any, and a one-pass
    scan's count are one test: a kernel holds one of them; likewise a running extreme, a window's
    extremes and a one-pass scan's."""
    tests = ("count over a window", "search (break)", "flag set in a loop (bool)", "window statistics in one pass")
    extremes = ("running maximum", "running minimum", "window minimum and maximum in one pass",
                "window statistics in one pass")
    one_pass = 0
    for seed in range(600):
        description = generate("control_flow", seed).description
        one_pass += "window statistics in one pass" in description
        assert sum(t in description for t in tests) <= 1, description
        assert sum(t in description for t in extremes) <= 1, description
    assert one_pass > 15


def _centred_scans(source: str) -> int:
    """The loops of a kernel that read each element of the thread's centred window, clamped to the array,
    and stop at none (no `break`): `for k in range(-h, h + 1)` reading `tid + k`, or `for k in range(2h + 1)`
    reading `tid + k - h`."""
    scans = 0
    for loop in re.split(r"\n    (?=for |while )", source)[1:]:
        header = re.match(r"for k in range\((-?\d+), (\d+)\):|for k in range\((\d+)\):", loop)
        body = "\n".join(line for line in loop.splitlines()[1:] if line.startswith("        "))
        read = re.search(r"wp\.clamp\(\w+ \+ k(?: - (\d+))?, 0, ", body)
        if not header or not read or "break" in body:
            continue
        lo, hi = (int(header.group(1)), int(header.group(2))) if header.group(1) else (0, int(header.group(3)))
        shift = int(read.group(1) or 0)
        offsets = range(lo - shift, hi - shift)
        scans += len(offsets) > 1 and offsets[0] == -offsets[-1]
    return scans


def test_the_scans_of_a_kernels_centred_window_are_one_loop():
    """A filter, a count, the extremes, a sum of one sign and an arg-max of one centred window are
    gathered in one loop, as a person writes them, not in one loop each over the same elements."""
    fused = 0
    for seed in range(600):
        spec = generate("control_flow", seed)
        fused += "the window's scans in one loop" in spec.description
        assert _centred_scans(spec.source) <= 1, spec.source
    assert fused > 40


def build_fused(statistics: tuple[str, ...], seed: int):
    """(the kernel whose one loop gathers `statistics` of input a's centred window, its outputs' names, its
    coefficient tables' names)."""
    from synthesis.categories.control_flow import window_statistics

    w = KernelWriter(random.Random(seed), "k", "control_flow", seed, (N,))
    w.output_update_share = 0.0
    loads = [w.add_array("a", "float32", "input", low=-2.0, high=2.0)]
    before = {a.name for a in w.args}
    results = window_statistics(w, loads, None, statistics, own=False)
    outputs = [w.add_array(r.hint, r.value.type, "output") for r in results]
    for name, r in zip(outputs, results):
        w.store(name, r.value)
    tables = [a.name for a in w.args if a.name not in before and a.role == "input"]
    return w.finish("test"), outputs, tables


@PROPERTY
@given(SEEDS, st.sets(st.sampled_from(["filtered", "signed sum", "arg extreme", "count", "extremes"]), min_size=2))
def test_a_fused_scan_gives_each_statistic_of_the_centred_window(seed, statistics):
    """Each output of a loop gathering several scans is the statistic its name says of one centred,
    clamped window: the taps' weighted sum, the sum of the positive (negative) elements, the largest
    (smallest) element and an offset where it lies, the extremes, a count; one loop gathers them all."""
    spec, outs, tables = build_fused(tuple(sorted(statistics)), seed)
    coef = table(table_length(spec, tables[0]), seed) if tables else []
    got = run(spec, {"a": A, **({tables[0]: coef} if tables else {})})
    (width,) = {int(b) - int(a or 0) for a, b in
                re.findall(r"for k in range\((?:(-?\d+), )?(-?\d+)\):", spec.source)}
    half = width // 2
    windows = [[A[clamped(t + k)] for k in range(-half, half + 1)] for t in range(N)]
    want = {"filtered": [sum(c * v for c, v in zip(coef, w)) for w in windows],
            "pos_sum_out": [sum(v for v in w if v > 0) for w in windows],
            "neg_sum_out": [sum(v for v in w if v < 0) for w in windows],
            "window_max": [max(w) for w in windows], "window_min": [min(w) for w in windows],
            "window_lo": [min(w) for w in windows], "window_hi": [max(w) for w in windows],
            **dict.fromkeys(("local_range", "swing", "contrast"), [max(w) - min(w) for w in windows])}
    for out in outs:
        if out == "count_out":
            assert all(0 <= c <= width for c in got[out])
        elif out in ("argmax", "argmin"):
            extreme = got["window_max" if out == "argmax" else "window_min"]
            assert all(-half <= o <= half and A[clamped(t + o)] == e for t, (o, e) in enumerate(zip(got[out], extreme)))
        else:
            assert all(math.isclose(g, v, rel_tol=1e-9, abs_tol=1e-9) for g, v in zip(got[out], want[out])), spec.source
    assert len(re.findall(r"^    for ", spec.source, re.M)) == 1
