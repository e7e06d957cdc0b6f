"""synthesis.realism's value evaluators (the launch and sampled-point evaluation, `judge_value`):
their shortcuts answer what the plain numpy computations they replace answer, edge values included
(NaN, +-inf, +-0). (The source checks are tested in test_realism.py.)"""
import ast
import math

import numpy as np
from hypothesis import given, settings, strategies as st

from synthesis.realism import (
    Interval,
    PointEvaluator,
    ReplayedDraws,
    _all,
    _all_inf,
    _any,
    judge_value,
    sampling_start,
)

EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, math.nan, math.inf, -math.inf, 3.0e38, -2.0**31]
values = st.sampled_from(EDGES)


def arrays(size=st.integers(0, 5)):
    """An array (0-d where the size drawn is None) of edge values."""
    return st.one_of(st.builds(np.array, values),
                     size.flatmap(lambda n: st.lists(values, min_size=n, max_size=n).map(np.array)))


@settings(max_examples=300, deadline=None)
@given(a=arrays())
def test_all_inf_answers_numpys_all_of_isinf(a):
    assert _all_inf(a) == bool(np.isinf(a).all())


@settings(max_examples=200, deadline=None)
@given(a=arrays())
def test_all_and_any_answer_numpys_methods(a):
    """_all and _any of a boolean array (or the numpy bool a 0-d comparison gives) are .all() and .any()."""
    for flags in (a > 0, a == a, np.isinf(a), np.isnan(a)):
        assert _all(flags) == bool(flags.all()) and _any(flags) == bool(flags.any())


def _judged_as_before(v: Interval, draws: dict) -> str | None:
    """judge_value's rules as the plain numpy tests wrote them before its shortcuts."""
    lo, hi = np.broadcast_arrays(v.lo, v.hi)
    if not (lo.size and (lo == hi).all() and np.isfinite(lo).all()):
        return None
    if (lo == lo.flat[0]).all():
        return "constant"
    for draw in draws.values():
        if (np.broadcast_to(draw.lo, lo.shape) == lo).all():
            return "copy"
    return None


@st.composite
def judged_values(draw):
    """A value (bounds equal in value, the same array, or apart) and the draws it is compared with,
    some of them equal to it."""
    n = draw(st.integers(1, 5))
    lo = np.array(draw(st.lists(values, min_size=n, max_size=n)))
    kind = draw(st.sampled_from(["same", "equal", "apart", "scalar"]))
    if kind == "scalar":
        lo = np.array(lo[0])
    hi = lo if kind in ("same", "scalar") else (
        lo.copy() if kind == "equal" else np.array(draw(st.lists(values, min_size=n, max_size=n))))
    if draw(st.booleans()):  # a value the same everywhere
        lo = np.full(lo.shape, lo.flat[0] if lo.size else 0.0)
        hi = lo
    draws = {}
    for k in range(draw(st.integers(0, 3))):
        pick = draw(st.sampled_from(["copy", "other", "scalar"]))
        if pick == "copy":
            d = np.array(lo, copy=True)
        elif pick == "scalar":
            d = np.array(draw(values))
        else:
            d = np.array(draw(st.lists(values, min_size=lo.size, max_size=lo.size))).reshape(lo.shape)
        draws[f"d{k}"] = Interval.point(d)
    return Interval(lo, hi), draws


@settings(max_examples=400, deadline=None)
@given(case=judged_values())
def test_judge_value_gives_the_plain_tests_verdict(case):
    value, draws = case
    evaluator = PointEvaluator({"v": value}, {}, {}, np.random.default_rng(0), 5)
    evaluator.env_unknown["v"] = False  # judged as the value it is, even all-infinite
    evaluator.draws = dict(draws)
    assert judge_value(evaluator, ast.parse("v", mode="eval").body) == _judged_as_before(value, draws)


draw_steps = st.lists(st.one_of(st.tuples(st.just("integers"), st.integers(1, 300)), st.just(("normal",))),
                      min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(sequences=st.lists(draw_steps, min_size=1, max_size=6))
def test_replayed_draws_are_the_generators_draws(sequences):
    """Sequences of draws, many sharing a start, through ReplayedDraws from one start: each value is
    what a generator at the start's state draws in that sequence."""
    start = sampling_start(("tid",), (97,), 7, 11)  # a launch of its own: its replay tree is this test's
    for sequence in sequences + sequences:  # the second time through, all replayed
        replayed = ReplayedDraws(start)
        fresh = np.random.default_rng(0)
        fresh.bit_generator.state = start.state
        for step in sequence:
            if step[0] == "integers":
                got, want = replayed.integers(0, step[1], 7), fresh.integers(0, step[1], 7)
            else:
                got, want = replayed.normal(0.0, 2.0, 7), fresh.normal(0.0, 2.0, 7)
            assert got.tobytes() == want.tobytes()


class _RulesOnly(PointEvaluator):
    """The evaluator with its exact-value shortcuts out of reach: every value's bounds are copies (never
    one array), so each node goes through its interval rule as written."""

    def _eval(self, node):
        v = super()._eval(node)
        return Interval(np.array(v.lo, copy=True), np.array(v.hi, copy=True), v.is_int)


LEAVES = ["x", "y", "z", "r", "1.5", "2", "0.0", "3"]
UNARY = ["-{}", "wp.abs({})", "wp.floor({})", "wp.ceil({})", "wp.exp({})", "wp.tanh({})", "wp.sqrt({})",
         "wp.log({})", "int({})", "float({})", "wp.sin({})", "wp.cos({})", "wp.clamp({}, -1.0, 2.0)"]
BINARY = ["{} + {}", "{} - {}", "{} * {}", "{} / {}", "{} // {}", "{} % {}", "wp.min({}, {})", "wp.max({}, {})",
          "wp.atan2({}, {})", "wp.pow({}, {})"]
expressions = st.recursive(
    st.sampled_from(LEAVES),
    lambda inner: st.one_of(st.tuples(st.sampled_from(UNARY), inner).map(lambda t: t[0].format(f"({t[1]})")),
                            st.tuples(st.sampled_from(BINARY), inner, inner).map(
                                lambda t: t[0].format(f"({t[1]})", f"({t[2]})"))),
    max_leaves=8)


def _same(u: np.ndarray, v: np.ndarray) -> bool:
    """Equal element for element, NaN as NaN, and zeros of one sign."""
    u, v = np.broadcast_arrays(u, v)
    return bool(np.array_equal(u, v, equal_nan=True) and (np.isnan(u) | (np.signbit(u) == np.signbit(v))).all())


one_operation = st.one_of(st.tuples(st.sampled_from(UNARY), st.sampled_from(LEAVES)).map(lambda t: t[0].format(t[1])),
                          st.tuples(st.sampled_from(BINARY), st.sampled_from(LEAVES), st.sampled_from(LEAVES)).map(
                              lambda t: t[0].format(*t[1:])))


@settings(max_examples=500, deadline=None)
@given(text=st.one_of(one_operation, expressions), x=st.lists(values, min_size=4, max_size=4), y=st.lists(values, min_size=4, max_size=4),
       z=values, ints=st.booleans())
def test_exact_value_shortcuts_give_the_interval_rules_values(text, x, y, z, ints):
    """Every evaluation shortcut for exact values (`lo is hi`) gives, bit for bit (NaN aside), the
    bounds the interval rules give, over edge values, with a range (r) among them."""
    env = {"x": Interval.point(np.array(x), ints), "y": Interval.point(np.array(y)), "z": Interval.point(z, ints),
           "r": Interval(-1.0, 2.0)}
    node = ast.parse(text, mode="eval").body
    with np.errstate(all="ignore"):
        fast = PointEvaluator(dict(env), {}, {}, np.random.default_rng(0), 4).eval(node)
        rules = _RulesOnly(dict(env), {}, {}, np.random.default_rng(0), 4).eval(node)
    assert _same(fast.lo, rules.lo) and _same(fast.hi, rules.hi) and fast.is_int == rules.is_int


def test_a_replaying_evaluator_draws_what_the_generator_draws():
    """Evaluators from a sampling start (ReplayedDraws, values made from draws shared) give the
    values and draws of an evaluator drawing from a generator at the start's state, the first time
    (drawing) and the second (replaying)."""
    from synthesis.realism import ArgInfo, SamplingInputs

    args = [ArgInfo("a", "input", low=-2.0, high=2.0), ArgInfo("i", "index", "int32", low=0.0, high=9.0)]
    start = sampling_start(("tid",), (61,), 9, 3)  # a launch of its own
    inputs = SamplingInputs(start, args, set())
    value = ast.parse("a[tid] * wp.dot(u, w) + a[i[tid]] - wp.length(u)", mode="eval").body
    for _ in range(2):
        rng = np.random.default_rng(0)
        rng.bit_generator.state = start.state
        plain = PointEvaluator(inputs.env, {}, inputs.read_only, rng, 9)
        replayed = inputs.evaluator({})
        want, got = plain.eval(value), replayed.eval(value)
        assert want.lo.tobytes() == got.lo.tobytes() and want.hi.tobytes() == got.hi.tobytes()
        assert {k: v.lo.tobytes() for k, v in plain.draws.items()} == {k: v.lo.tobytes() for k, v in replayed.draws.items()}
        assert {k: v.lo.tobytes() for k, v in plain.free.items()} == {k: v.lo.tobytes() for k, v in replayed.free.items()}


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(st.tuples(arrays(st.just(3)), arrays(st.just(3))), min_size=1, max_size=4),
       conjunction=st.booleans())
def test_bool_op_gives_the_stacked_reduction(parts, conjunction):
    """bool_op's pairwise fold gives, bit for bit, the reduction over its operands broadcast to one shape."""
    from synthesis.realism import bool_op

    vals = [Interval(lo, hi) for lo, hi in parts]
    f = np.minimum if conjunction else np.maximum
    want_lo = f.reduce([np.broadcast_to(v.lo, np.broadcast(*[x.lo for x in vals]).shape) for v in vals])
    want_hi = f.reduce([np.broadcast_to(v.hi, np.broadcast(*[x.hi for x in vals]).shape) for v in vals])
    got = bool_op(ast.And() if conjunction else ast.Or(), vals)
    assert _same(got.lo, want_lo) and _same(got.hi, want_hi) and got.lo.shape == np.shape(want_lo) and got.is_int
