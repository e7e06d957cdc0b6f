"""The realism detectors catch each planted pattern and pass its legitimate near miss; generated
kernels carry none of the patterns and their outputs are neither constant nor copies."""
import ast
import textwrap

import numpy as np
import pytest

from synthesis.categories import CATEGORY_NAMES, generate
from synthesis.realism import (
    ArgInfo,
    condition_is_constant,
    degenerate_outputs,
    figures,
    find_patterns,
    sampled_output_findings,
    sampling_evaluator,
    sampling_start,
)

ARGS = [ArgInfo("a", "input", low=-2.0, high=2.0), ArgInfo("b", "input", low=-2.0, high=2.0),
        ArgInfo("out", "output"), ArgInfo("scale", "scalar", value=1.5), ArgInfo("n", "scalar", "int32", value=200)]


def kernel(body: str, helpers: str = "") -> str:
    body = textwrap.indent(textwrap.dedent(body).strip("\n"), "    ")
    return (textwrap.dedent(helpers).strip("\n") + "\n\n" if helpers else "") + (
        "@wp.kernel\ndef k(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float), "
        f"scale: float, n: int):\n    tid = wp.tid()\n{body}\n")


def patterns(source: str, dim=(256,)) -> set[str]:
    return {f.pattern for f in find_patterns(source, dim, ARGS)}


PLANTED = [
    ("same_operands", "x = a[tid]\nout[tid] = x - x", "x = a[tid]\nout[tid] = x - b[tid]"),
    ("same_operands", "x = a[tid]\nout[tid] = wp.min(x, x)", "x = a[tid]\nout[tid] = wp.min(x, b[tid])"),
    ("same_operands", "x = a[tid]\nout[tid] = wp.where(x > 0.0, x, x)", "x = a[tid]\nout[tid] = wp.where(x > 0.0, x, -x)"),
    ("literal_only", "out[tid] = a[tid] + wp.exp(-0.875)", "out[tid] = a[tid] + wp.exp(-a[tid])"),
    ("literal_only", "out[tid] = a[tid] * -(-1.5625)", "out[tid] = a[tid] * -1.5625"),
    ("literal_only", "out[tid] = a[tid] * (1.0 + 2.4375)", "out[tid] = a[tid] * (1.0 + scale)"),
    # the block's last thread is the launch's, not a literal's (Warp's stream compaction example)
    ("literal_only", "if tid == 64 - 1:\n    out[0] = a[tid]", "if tid == wp.block_dim() - 1:\n    out[0] = a[tid]"),
    ("constant_condition", "r = a[tid]\nif 5 * 4 == 5:\n    r = b[tid]\nout[tid] = r",
     "r = a[tid]\nif tid * 4 == 8:\n    r = b[tid]\nout[tid] = r"),
    ("constant_condition", "r = a[tid]\nif tid / -3 <= 7:\n    r = b[tid]\nout[tid] = r",
     "r = a[tid]\nif tid / -3 <= -7:\n    r = b[tid]\nout[tid] = r"),
    ("constant_condition", "r = a[tid]\nif a[tid] < 2.5:\n    r = b[tid]\nout[tid] = r",
     "r = a[tid]\nif a[tid] < 0.5:\n    r = b[tid]\nout[tid] = r"),
    ("constant_condition", "r = a[tid]\nif tid >= n + 100:\n    r = b[tid]\nout[tid] = r",
     "r = a[tid]\nif tid >= n:\n    r = b[tid]\nout[tid] = r"),
    ("dead_value", "x = a[tid] * 2.0\nout[tid] = a[tid]", "x = a[tid] * 2.0\nout[tid] = x"),
    # a value that only feeds its own update (an exponentially weighted variance never stored)
    ("dead_value", "v = float(0.0)\nfor k in range(3):\n    v = 0.5 * (v + a[tid] * b[k])\nout[tid] = a[tid]",
     "v = float(0.0)\nfor k in range(3):\n    v = 0.5 * (v + a[tid] * b[k])\nout[tid] = v"),
    ("dead_value", "r = a[tid]\nif a[tid] > 0.0:\n    r = 1.0\nelse:\n    r = b[tid]\nout[tid] = r",
     "r = float(0.0)\nif a[tid] > 0.0:\n    r = 1.0\nelse:\n    r = b[tid]\nout[tid] = r"),
    ("self_assign", "r = a[tid]\nif b[tid] > 0.0:\n    r = r\nout[tid] = r",
     "r = a[tid]\nif b[tid] > 0.0:\n    r = -r\nout[tid] = r"),
    ("undone_operation", "x = a[tid]\nt1 = -x\nout[tid] = -t1 * b[tid]", "x = a[tid]\nt1 = -x\nout[tid] = t1 * b[tid]"),
    # a sum of one value n times (n * x), a running minimum of one value, a counted while loop
    ("invariant_loop", "acc = float(0.0)\nfor k in range(4):\n    acc += a[tid]\nout[tid] = acc",
     "acc = float(0.0)\nfor k in range(4):\n    acc += a[tid] * b[k]\nout[tid] = acc"),
    # x times a function of the trip alone: x times a number
    ("invariant_loop", "acc = float(0.0)\nfor k in range(4):\n    acc += a[tid] * float(k) / 2.0\nout[tid] = acc",
     "acc = float(0.0)\nfor k in range(4):\n    acc += wp.sin(a[tid] * float(k))\nout[tid] = acc"),
    ("invariant_loop", "m = a[tid]\nfor k in range(n):\n    m = wp.min(m, b[tid])\nout[tid] = m",
     "m = a[tid]\nfor k in range(n):\n    m = wp.min(m, b[k])\nout[tid] = m"),
    ("invariant_loop", "acc = float(0.0)\nc = int(0)\nwhile c < 4:\n    acc = acc + a[tid]\n    c = c + 1\nout[tid] = acc",
     "acc = float(0.0)\nc = int(0)\nwhile c < 4:\n    acc = acc * 0.5 + a[tid]\n    c = c + 1\nout[tid] = acc"),
    # an outer loop whose trips repeat one inner sum, through a local reset on each trip
    ("invariant_loop", "t = float(0.0)\nfor r in range(3):\n    s = float(0.0)\n    for c in range(4):\n        s += a[c]\n"
                       "    t = t + s\nout[tid] = t",
     "t = float(0.0)\nfor r in range(3):\n    s = float(0.0)\n    for c in range(4):\n        s += a[r * 4 + c]\n"
     "    t = t + s\nout[tid] = t"),
    # operations that change nothing, also through locals
    ("no_effect", "x = a[tid]\ns = wp.sqrt(wp.abs(x))\nout[tid] = wp.abs(s) * b[tid]",
     "x = a[tid]\ns = wp.sqrt(wp.abs(x)) - b[tid]\nout[tid] = wp.abs(s) * b[tid]"),
    ("no_effect", "x = a[tid] * b[tid]\nout[tid] = wp.abs(x * x) + b[tid]", "x = a[tid] * b[tid]\nout[tid] = wp.abs(x * b[tid]) + b[tid]"),
    ("no_effect", "x = a[tid]\nm = wp.max(x, 0.5)\nout[tid] = wp.max(m, x) + b[tid]",
     "x = a[tid]\nm = wp.max(x, 0.5)\nout[tid] = wp.max(m, b[tid]) + x"),
    ("no_effect", "out[tid] = wp.floor(float(tid)) * a[tid]", "out[tid] = wp.floor(a[tid] * 4.0) * b[tid]"),
    ("no_effect", "f = wp.floor(a[tid])\nout[tid] = wp.ceil(f) + b[tid]", "f = wp.floor(a[tid])\nout[tid] = wp.ceil(f * 0.5) + b[tid]"),
    ("no_effect", "out[tid] = 2.0 * a[tid] - 1.0 * b[tid]", "out[tid] = 2.0 * a[tid] - 0.5 * b[tid]"),
    ("no_effect", "out[tid] = (a[tid] + 0.0) * b[tid]", "out[tid] = (a[tid] + 0.5) * b[tid]"),
    ("no_effect", "out[tid] = a[tid] / 1.0 + b[tid]", "out[tid] = 1.0 / a[tid] + b[tid]"),
    # a value added and subtracted, also through locals
    ("cancelling_terms", "x = a[tid] + b[tid]\nout[tid] = x - a[tid]", "x = a[tid] + b[tid]\nout[tid] = x - b[tid] * 2.0"),
    ("cancelling_terms", "e = a[tid] + scale\nd = a[tid] + b[tid]\nout[tid] = e - d",
     "e = a[tid] + scale\nd = b[tid] * 2.0\nout[tid] = e - d"),
    ("cancelling_terms", "x = a[tid] * 2.0\nout[tid] = (x + (-x)) + b[tid]", "x = a[tid] * 2.0\nout[tid] = (x + (-b[tid])) + x"),
    # one value on both sides of a comparison
    ("cancelling_terms", "x = a[tid]\nt = b[tid]\nr = float(0.0)\nif x + t >= t:\n    r = x\nout[tid] = r",
     "x = a[tid]\nt = b[tid]\nr = float(0.0)\nif x + t >= 0.5:\n    r = x\nout[tid] = r"),
    # an abs of a thread index or of a grid coordinate built from it
    ("no_effect", "out[tid] = a[tid] * float(wp.abs(tid))", "out[tid] = a[tid] * float(wp.abs(tid - 128))"),
    ("no_effect", "px = float(tid) * 0.0625\nout[tid] = a[tid] * wp.abs(px)",
     "px = float(tid) * 0.0625 - 1.0\nout[tid] = a[tid] * wp.abs(px)"),
    ("no_effect", "x = a[tid]\nout[tid] = wp.max(wp.max(x, scale), wp.max(b[tid], x))",
     "x = a[tid]\nout[tid] = wp.max(wp.max(x, scale), wp.min(b[tid], x))"),
    ("no_effect", "t = wp.vec3(a[tid], -1.0, b[tid])\nout[tid] = 1.5 * t[1]",
     "t = wp.vec3(a[tid], -1.0, b[tid])\nout[tid] = 1.5 * t[2]"),
    ("redundant_branch", "x = a[tid]\nr = x\nif x >= 0.0:\n    r = b[tid]\nelse:\n    if x > 1.5:\n        r = x * 2.0\nout[tid] = r",
     "x = a[tid]\nr = x\nif x >= 0.0:\n    r = b[tid]\nelse:\n    if x > -1.5:\n        r = x * 2.0\nout[tid] = r"),
    ("redundant_branch", "x = a[tid]\nr = x\nif x < -0.5:\n    r = b[tid]\nelif x < -1.0:\n    r = x * 2.0\nout[tid] = r",
     "x = a[tid]\nr = x\nif x < -0.5:\n    r = b[tid]\nelif x < 1.0:\n    r = x * 2.0\nout[tid] = r"),
    ("foldable_constants", "x = a[tid]\nr = x\nif -x <= 1.5:\n    r = b[tid]\nout[tid] = r",
     "x = a[tid]\nr = x\nif x >= -1.5:\n    r = b[tid]\nout[tid] = r"),
    # two literals a person folds into one
    ("foldable_constants", "out[tid] = (a[tid] * 2.5) / 1.5", "out[tid] = (a[tid] + 2.5) / 1.5"),
    ("foldable_constants", "x = a[tid]\nout[tid] = (-x) / -2.0", "x = a[tid]\nout[tid] = (-x) / 2.0"),
    ("foldable_constants", "out[tid] = a[tid] + -2.375", "out[tid] = a[tid] - 2.375"),
    ("foldable_constants", "out[tid] = 0.5 - (a[tid] - 1.25)", "out[tid] = 0.5 - (a[tid] * 1.25)"),
    # branching that decides nothing
    ("redundant_branch", "x = a[tid]\nr = float(0.0)\nif x > 0.5:\n    r = x * 2.0\nelse:\n    r = x * 2.0\nout[tid] = r",
     "x = a[tid]\nr = float(0.0)\nif x > 0.5:\n    r = x * 2.0\nelse:\n    r = x * 3.0\nout[tid] = r"),
    ("redundant_branch", "x = a[tid]\nr = x\nif b[tid] > 0.5:\n    r = x\nelse:\n    r = x * 2.0\nout[tid] = r",
     "x = a[tid]\nr = x\nif b[tid] > 0.5:\n    r = x * 3.0\nout[tid] = r"),
    ("redundant_branch", "x = a[tid]\ny = b[tid]\nr = x\nif x <= y and y >= x:\n    r = y\nout[tid] = r",
     "x = a[tid]\ny = b[tid]\nr = x\nif x <= y and y >= 0.5:\n    r = y\nout[tid] = r"),
    ("redundant_branch", "x = a[tid]\nr = x\nif x > 1.0 and -1.0 < x:\n    r = b[tid]\nout[tid] = r",
     "x = a[tid]\nr = x\nif x > -1.0 and x < 1.0:\n    r = b[tid]\nout[tid] = r"),
    ("redundant_branch", "x = a[tid]\ny = b[tid]\nr = x\nif wp.max(x, y) > x:\n    r = y\nout[tid] = r",
     "x = a[tid]\ny = b[tid]\nr = x\nif wp.max(x, y) > 0.5:\n    r = y\nout[tid] = r"),
    # an exit test that holds on every trip or on none
    ("invariant_loop", "acc = float(0.0)\nfor k in range(4):\n    if a[tid] > 0.5:\n        break\n    acc += b[k]\nout[tid] = acc",
     "acc = float(0.0)\nfor k in range(4):\n    if a[k] > 0.5:\n        break\n    acc += b[k]\nout[tid] = acc"),
    ("invariant_loop", "acc = float(0.0)\nfor k in range(4):\n    x = a[tid] * 2.0\n    if x > 0.5:\n        continue\n"
                       "    acc += b[k]\nout[tid] = acc",
     "acc = float(0.0)\nfor k in range(4):\n    x = a[k] * 2.0\n    if x > 0.5:\n        continue\n"
     "    acc += b[k]\nout[tid] = acc"),
]


@pytest.mark.parametrize("pattern,planted,near_miss", PLANTED, ids=[f"{p[0]}-{i}" for i, p in enumerate(PLANTED)])
def test_detector_flags_planted_pattern_and_passes_near_miss(pattern, planted, near_miss):
    assert pattern in patterns(kernel(planted))
    assert patterns(kernel(near_miss)) == set()


VECTORS = """@wp.kernel
def k(v: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat33), out: wp.array(dtype=wp.vec3), mo: wp.array(dtype=wp.mat33)):
    tid = wp.tid()
    x = v[tid]
    t1 = -x
    w = m[tid]
    m1 = wp.transpose(w)
    out[tid] = wp.cross({cross})
    mo[tid] = {matrix}
"""


def test_cross_of_a_vector_and_its_negation_is_flagged():
    found = find_patterns(VECTORS.format(cross="x, t1", matrix="m1 * 2.0"))
    assert [f.pattern for f in found] == ["undone_operation"]


def test_cross_of_two_scalings_of_one_vector_is_flagged():
    found = find_patterns(VECTORS.format(cross="t1 * (-1.875), x * 0.5", matrix="m1 * 2.0"))
    assert [f.pattern for f in found] == ["undone_operation"]


def test_transpose_of_a_transpose_through_a_local_is_flagged():
    found = find_patterns(VECTORS.format(cross="t1, v[(tid + 1) % 8]", matrix="wp.transpose(m1)"))
    assert [f.pattern for f in found] == ["undone_operation"]


def test_cross_of_a_vector_and_its_direction_is_flagged():
    source = VECTORS.format(cross="x, wp.normalize(x)", matrix="m1")
    assert "undone_operation" in {f.pattern for f in find_patterns(source)}


def test_cross_of_different_vectors_and_one_transpose_pass():
    assert find_patterns(VECTORS.format(cross="t1, v[(tid + 1) % 8]", matrix="m1 * 2.0")) == []


def test_a_loop_over_a_query_counting_its_results_is_not_flagged():
    source = ("@wp.kernel\ndef k(grid: wp.uint64, p: wp.array(dtype=wp.vec3), out: wp.array(dtype=int)):\n"
              "    tid = wp.tid()\n    query = wp.hash_grid_query(grid, p[tid], 0.5)\n    count = int(0)\n"
              "    for index in query:\n        count += 1\n    out[tid] = count\n")
    assert find_patterns(source) == []


def test_a_loop_stopped_by_a_stateful_query_is_not_flagged():
    source = ("@wp.kernel\ndef k(grid: wp.uint64, p: wp.array(dtype=wp.vec3), out: wp.array2d(dtype=int)):\n"
              "    tid = wp.tid()\n    query = wp.hash_grid_query(grid, p[tid], 0.5)\n    index = int(0)\n"
              "    count = int(0)\n    while count < 8:\n        if not wp.hash_grid_query_next(query, index):\n"
              "            break\n        out[tid, count] = index\n        count += 1\n")
    assert find_patterns(source) == []


def test_no_loop_in_warps_own_examples_is_flagged_invariant():
    import pathlib

    import warp

    from synthesis.realism import find_invariant_loops

    loops, flagged = 0, []
    for path in sorted((pathlib.Path(warp.__file__).parent / "examples").rglob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text())):
            if isinstance(fn, ast.FunctionDef) and fn.decorator_list:
                loops += sum(isinstance(n, (ast.For, ast.While)) for n in ast.walk(fn))
                flagged += [(path.name, fn.name, f.text) for f in find_invariant_loops(fn)]
    assert loops >= 30  # the examples do loop: the check below looked at something
    assert flagged == []


@pytest.mark.parametrize("finder", ["find_foldable_constants", "find_redundant_branches", "find_cancelling_terms",
                                    "find_no_effect"])
def test_no_kernel_or_func_in_warps_own_examples_is_flagged(finder):
    """Real code passes the detectors of code no person writes (271 functions in warp-lang 1.19)."""
    import pathlib

    import warp

    from synthesis import realism

    find = getattr(realism, finder)
    functions, flagged = 0, []
    for path in sorted((pathlib.Path(warp.__file__).parent / "examples").rglob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text())):
            if isinstance(fn, ast.FunctionDef) and (realism._is_wp_func(fn, "kernel") or realism._is_wp_func(fn, "func")):
                functions += 1
                flagged += [(path.name, fn.name, f.text) for f in find(fn)]
    assert functions >= 150  # the examples were found: the check looked at something
    assert flagged == []


def test_float_zero_accumulator_idiom_is_not_flagged():
    source = kernel("acc = float(0.0)\nfor i in range(4):\n    acc += a[i] * float(i)\nout[tid] = acc")
    assert patterns(source) == set()


def test_loop_variable_ranges_decide_conditions():
    constant = kernel("acc = float(0.0)\nfor i in range(4):\n    if i < 9:\n        acc += a[tid]\nout[tid] = acc")
    varying = kernel("acc = float(0.0)\nfor i in range(4):\n    if i < 2:\n        acc += a[tid]\nout[tid] = acc")
    assert "constant_condition" in patterns(constant)
    assert patterns(varying) == set()


HELPER_PASSTHROUGH = """
@wp.func
def f(x: float, y: float) -> float:
    t = y * 2.0
    return x
"""
HELPER_GOOD = """
@wp.func
def f(x: float, y: float) -> float:
    t = y * 2.0
    return x + t
"""


def test_helper_returning_parameter_and_ignoring_one_is_flagged():
    found = patterns(kernel("out[tid] = f(a[tid], b[tid])", HELPER_PASSTHROUGH))
    assert {"helper_passthrough", "dead_value"} <= found


def test_helper_returning_its_parameter_with_a_member_assigned_is_not_a_passthrough():
    """`p.vel = ...; return p` returns the parameter changed (Warp passes a struct or vector by value)."""
    member = "@wp.func\ndef f(x: wp.vec3, y: float) -> wp.vec3:\n    x[1] = x[1] * y\n    return x"
    assert "helper_passthrough" not in patterns(kernel("out[tid] = f(wp.vec3(a[tid]), b[tid])[1]", member))
    untouched = "@wp.func\ndef f(x: wp.vec3, y: float) -> wp.vec3:\n    z = x\n    z[1] = z[1] * y\n    return x"
    assert "helper_passthrough" in patterns(kernel("out[tid] = f(wp.vec3(a[tid]), b[tid])[1]", untouched))


def test_helper_ignoring_a_parameter_is_flagged():
    source = kernel("out[tid] = f(a[tid], b[tid])", "@wp.func\ndef f(x: float, y: float) -> float:\n    return x * 2.0")
    assert "helper_unused_param" in patterns(source)


def test_helper_using_every_parameter_passes():
    assert patterns(kernel("out[tid] = f(a[tid], b[tid])", HELPER_GOOD)) == set()


def test_condition_check_enumerates_the_launch():
    assert condition_is_constant("tid < 300", ("tid",), (256,), ARGS)
    assert not condition_is_constant("tid < 200", ("tid",), (256,), ARGS)
    assert condition_is_constant("i + j >= 0", ("i", "j"), (8, 8), ARGS)
    assert not condition_is_constant("i - j >= 0", ("i", "j"), (8, 8), ARGS)


def test_a_float_condition_open_only_at_its_inputs_endpoint_counts_as_constant():
    b = [ArgInfo("b", "input", "float32", -2.0, 2.0, None)]
    assert condition_is_constant("2.0 > b[tid]", ("tid",), (256,), b)  # false only where b == 2.0
    assert condition_is_constant("b[tid] >= -2.0", ("tid",), (256,), b)
    assert not condition_is_constant("1.5 > b[tid]", ("tid",), (256,), b)
    assert not condition_is_constant("tid < 255", ("tid",), (256,), ARGS)  # an int guard on the last thread is real


def test_figures_count_repeated_loads_neighbours_and_gathers():
    repeated = kernel("out[tid] = a[tid] * a[tid] + a[tid]")
    own = kernel("x = a[tid]\nout[tid] = x * x + x")
    neighbour = kernel("out[tid] = a[wp.max(tid - 1, 0)] + a[tid]")
    gather = kernel("j = b[tid]\nout[tid] = a[j]")
    arrays = {"a", "b", "out"}
    assert figures(repeated, arrays)["repeated_load"] == 1
    assert figures(own, arrays) == {"repeated_load": 0, "non_own_read": 0, "neighbour_read": 0, "gather_read": 0,
                                    "unrelated_outputs": 0}
    assert figures(neighbour, arrays)["neighbour_read"] == 1
    assert figures(gather, arrays)["gather_read"] == 1


def test_members_of_one_record_are_different_loads():
    """`r[tid].pos`, `r[tid].vel`, `r[tid].mass`: three members, no element loaded three times; the
    same member read three times is."""
    members = kernel("out[tid] = wp.length(r[tid].pos) + wp.length(r[tid].vel) + r[tid].mass")
    same = kernel("out[tid] = r[tid].mass * r[tid].mass + r[tid].mass")
    assert figures(members, {"r", "out"})["repeated_load"] == 0
    assert figures(same, {"r", "out"})["repeated_load"] == 1


def test_a_clamp_to_the_arrays_extent_is_a_neighbour_read_not_a_gather():
    clamped = kernel("out[tid] = a[wp.min(tid + 1, a.shape[0] - 1)] - a[tid]")
    got = figures(clamped, {"a", "out"})
    assert (got["neighbour_read"], got["gather_read"]) == (1, 0)


def test_figures_count_unrelated_computations_side_by_side():
    arrays = {"a", "b", "c", "out", "out2", "total"}
    apart = kernel("out[tid] = wp.abs(a[tid])\nout2[tid] = wp.sin(b[tid])")
    shared_input = kernel("x = a[tid]\nout[tid] = wp.abs(x)\nout2[tid] = wp.sin(x) * b[tid]")
    through_a_condition = kernel("y = float(0.0)\nif a[tid] > 0.0:\n    y = b[tid]\nout[tid] = y\nout2[tid] = a[tid]")
    through_an_atomic = kernel("x = a[tid]\nwp.atomic_add(total, 0, x)\nout[tid] = x * x")
    assert figures(apart, arrays)["unrelated_outputs"] == 1
    assert figures(shared_input, arrays)["unrelated_outputs"] == 0
    assert figures(through_a_condition, arrays)["unrelated_outputs"] == 0
    assert figures(through_an_atomic, arrays)["unrelated_outputs"] == 0


def test_a_tile_product_accumulated_in_place_is_part_of_the_store_that_follows():
    """`wp.tile_matmul(a, b, acc)` adds into the local tile `acc`: one computation with its store, not
    a write of its own beside it; a product into an array parameter is a write."""
    arrays = {"a", "b", "out"}
    accumulated = kernel("acc = wp.tile_zeros(shape=(8, 8), dtype=float)\nx = wp.tile_load(a, shape=(8, 8))\n"
                         "y = wp.tile_load(b, shape=(8, 8))\nwp.tile_matmul(x, y, acc)\nwp.tile_store(out, acc)")
    beside = kernel("x = wp.tile_load(a, shape=(8, 8))\nwp.tile_store(out, x)\ny = wp.tile_load(b, shape=(8, 8))\n"
                    "wp.tile_matmul(y, y, b)")
    assert figures(accumulated, arrays)["unrelated_outputs"] == 0
    assert figures(beside, arrays)["unrelated_outputs"] == 1


def test_output_detector_flags_zero_constant_and_copies():
    inputs = {"a": np.arange(8, dtype=np.float32)}
    found = degenerate_outputs({"z": np.zeros(8, np.float32), "c": np.full(8, 2.5, np.float32),
                                "copy": np.arange(8, dtype=np.float32)}, inputs)
    assert {(f.pattern, f.text) for f in found} == {("zero_output", "z"), ("constant_output", "c"),
                                                    ("copy_of_input", "copy == a")}


def test_output_detector_flags_one_vector_written_by_every_thread():
    # Each element is (1, 2, 3): the flat values differ, the elements do not.
    same = np.tile(np.array([1.0, 2.0, 3.0], np.float32), (8, 1))
    varied = same + np.arange(8, dtype=np.float32)[:, None]
    found = degenerate_outputs({"same": same, "varied": varied}, {})
    assert [(f.pattern, f.text) for f in found] == [("constant_output", "same")]


def test_output_detector_flags_unchanged_inout_and_passes_real_outputs():
    start = {"acc": np.array([1, 2, 3], np.int32)}
    assert [f.pattern for f in degenerate_outputs({"acc": np.array([1, 2, 3], np.int32)}, {}, start)] == ["copy_of_input"]
    inputs = {"a": np.arange(8, dtype=np.float32)}
    assert degenerate_outputs({"y": np.arange(8, dtype=np.float32) * 2, "total": np.array([4.0], np.float32)},
                              inputs, start) == []


def test_sampled_outputs_catch_cancellations_through_locals():
    cancel = kernel("x = a[tid]\nv1 = wp.abs(x)\nv2 = wp.abs(x)\nout[tid] = v2 - v1")
    copy = kernel("x = a[tid]\nt1 = -x\nout[tid] = -t1")
    real = kernel("x = a[tid]\nv1 = wp.abs(x)\nout[tid] = v1 - b[tid]")
    assert [f.pattern for f in sampled_output_findings(cancel, (256,), ARGS)] == ["constant_output"]
    assert [f.pattern for f in sampled_output_findings(copy, (256,), ARGS)] == ["copy_of_input"]
    assert sampled_output_findings(real, (256,), ARGS) == []


def test_sampled_outputs_let_a_flag_set_in_a_loop_take_either_value():
    """`hit = bool(False)`, then `hit = True` in a loop: the mark written from it (`1 if hit else 0`)
    is either value, not a constant; a mark that ignores the flag still is one."""
    loop = "hit = bool(False)\nfor k in range(8):\n    if a[k] > 0.0:\n        hit = True\n        break\n"
    mark = kernel(loop + "out[tid] = 1.0 if hit else 0.0")
    same = kernel(loop + "out[tid] = 1.0 if hit else 1.0")
    assert sampled_output_findings(mark, (256,), ARGS) == []
    assert [f.pattern for f in sampled_output_findings(same, (256,), ARGS)] == ["constant_output"]


def test_sampled_outputs_let_an_integer_count_meet_the_values_it_is_tested_for():
    """A count kept in a loop (`n = int(0)`, `n += 1`) takes small integers: a rule on it (`n == 3`,
    as a cellular automaton writes) is not judged constant, and a rule no count can meet still is."""
    loop = "n = int(0)\nfor k in range(8):\n    if a[k] > 0.0:\n        n += 1\n"
    rule = kernel(loop + "out[tid] = wp.where(n == 3, 1.0, 0.0)")
    never = kernel(loop + "out[tid] = wp.where(n == 3.5, 1.0, 0.0)")
    assert sampled_output_findings(rule, (256,), ARGS) == []
    assert [f.pattern for f in sampled_output_findings(never, (256,), ARGS)] == ["constant_output"]


@pytest.mark.parametrize("category", CATEGORY_NAMES)
def test_generated_kernels_have_no_degenerate_pattern(category):
    bad = []
    for seed in range(20):
        spec = generate(category, seed)
        args = [ArgInfo(a.name, a.role, a.dtype, a.low, a.high, a.value) for a in spec.args]
        found = find_patterns(spec.source, spec.dim, args) + sampled_output_findings(spec.source, spec.dim, args)
        if found:
            bad.append((seed, found[0]))
    assert bad == []


@pytest.mark.parametrize("category", ["control_flow", "nested_loop", "combined", "scalar_param", "arithmetic", "math"])
def test_generators_write_no_alike_loop_and_no_idle_operation_before_any_redraw(category, monkeypatch):
    """Loops whose trips differ and operations that do something come from the generators themselves,
    not from `generate` redrawing what the check finds: with the check blind to both, none appears."""
    import synthesis.categories as categories

    checked = categories.find_patterns
    blind = ("invariant_loop", "no_effect")
    monkeypatch.setattr(categories, "find_patterns",
                        lambda source, *a, **k: [f for f in checked(source, *a, **k) if f.pattern not in blind])
    found = [(seed, f) for seed in range(40) for f in checked(generate(category, seed).source) if f.pattern in blind]
    assert found == []


def test_generated_outputs_are_not_constant_zero_or_copies_in_warp():
    """Two kernels per category through Warp on the CPU (the reference stage), outputs decoded."""
    from cuda_production.reference import input_seed, make_input, warp_reference

    specs = [generate(c, seed) for c in CATEGORY_NAMES for seed in (100, 101)]
    blobs = warp_reference(specs, "test_realism_outputs")
    bad = []
    for spec in specs:
        written, inputs, initial, offset = {}, {}, {}, 0
        for position, arg in enumerate(x for a in spec.args for x in a.flattened()):
            if arg.kind != "array":
                continue
            if arg.role in ("output", "inout"):
                count = arg.count * arg.width
                written[arg.name] = np.frombuffer(blobs[spec.name], dtype=arg.numpy_dtype, count=count,
                                                  offset=offset).reshape(arg.count, arg.width)
                offset += count * arg.component_bytes
            if arg.role in ("input", "inout", "index"):
                (initial if arg.role == "inout" else inputs)[arg.name] = make_input(
                    arg, position, input_seed(spec)).reshape(arg.count, arg.width)
        if degenerate_outputs(written, inputs, initial):
            bad.append(spec.name)
    assert bad == []


def test_generated_kernels_read_like_real_code():
    sources = "\n".join(generate(c, s).source for c in CATEGORY_NAMES for s in range(30))
    tree = ast.parse(sources)
    helpers = [f for f in tree.body if isinstance(f, ast.FunctionDef) and f.decorator_list
               and ast.unparse(f.decorator_list[0]) == "wp.func"]
    # a helper reads every parameter and computes something: one-line helpers (a sigmoid, a soft clip,
    # a plane's signed distance) are what people write too, but never `return x` of a parameter
    assert helpers and all(len(f.args.args) >= 1 for f in helpers)
    for f in helpers:
        read = {n.id for n in ast.walk(f) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        params = {a.arg for a in f.args.args}
        assert params <= read, ast.unparse(f)
        only = f.body[-1] if len(f.body) == 1 else None  # a branch may return a parameter; a whole body not
        assert not (isinstance(only, ast.Return) and isinstance(only.value, ast.Name)), ast.unparse(f)
    assert sum(len(f.body) >= 2 for f in helpers) >= 0.4 * len(helpers)
    assert "= wp.constant(" in sources
    assert "    return\n" in sources  # early return
    assert "wp.max(tid - 1, 0)" in sources or "max(tid - 1, 0)" in sources  # clamped neighbour
    assert "+= " in sources and "_g = " in sources  # array `+=` and a gather


def test_evaluators_from_one_sampling_start_draw_what_a_fresh_evaluator_draws():
    value = ast.parse("a[tid] * scale + b[(tid + 3) % 256] - wp.sin(c)", mode="eval").body
    start = sampling_start(("tid",), (256,))
    fresh = sampling_evaluator(("tid",), (256,), ARGS, {}, set()).eval(value)
    for _ in range(2):  # a second evaluator from the start must not continue the first one's draws
        again = sampling_evaluator(("tid",), (256,), ARGS, {}, set(), start=start).eval(value)
        assert np.array_equal(fresh.lo, again.lo) and np.array_equal(fresh.hi, again.hi)


def test_sampling_start_for_another_launch_is_refused():
    with pytest.raises(ValueError, match="another launch"):
        sampling_evaluator(("tid",), (128,), ARGS, {}, set(), start=sampling_start(("tid",), (256,)))



def _outermost_literal_only(fn: ast.FunctionDef) -> list[ast.AST]:
    """find_literal_only's definition, spelled out: the computations of the body that are
    literal-only (`_literal_only`, a walk of each), less those inside another such one."""
    from synthesis.realism import _is_computation, _literal_only

    found = [n for stmt in fn.body for n in ast.walk(stmt)
             if isinstance(n, ast.expr) and _is_computation(n) and _literal_only(n)]
    inner = {id(m) for n in found for m in ast.walk(n) if m is not n}
    return [n for n in found if id(n) not in inner]


INDEX_KINDS = [(ast.BinOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Call), (ast.Assign, ast.AugAssign, ast.For),
               (ast.Return,), (ast.If, ast.While, ast.IfExp, ast.Call), (ast.UnaryOp,)]


@pytest.mark.parametrize("source", [kernel(p[1]) for p in PLANTED] + [generate(c, 3).source for c in CATEGORY_NAMES])
def test_function_index_answers_what_separate_walks_answer(source):
    """The one-walk index the checks share gives, per function, the nodes each check selects in
    ast.walk's order, the names each statement and branch test loads, and the outermost
    literal-only computations (as a set: the index lists them depth first)."""
    from synthesis.realism import FunctionIndex

    for fn in ast.parse(source).body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        index = FunctionIndex(fn)
        for kinds in INDEX_KINDS:
            assert [id(n) for n in index.of_kind(*kinds)] == [id(n) for n in ast.walk(fn) if isinstance(n, kinds)]
        statements = [n for n in ast.walk(fn) if isinstance(n, ast.stmt)]
        for node in statements + [s.test for s in statements if isinstance(s, ast.If)]:
            loaded = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            assert index.reads(node) == loaded
        assert {id(n) for n in index.literal_only} == {id(n) for n in _outermost_literal_only(fn)}


@pytest.mark.parametrize("source", [kernel(p[1]) for p in PLANTED] + [generate(c, 5).source for c in CATEGORY_NAMES]
                         + [kernel("r = a[tid]\nif flag:\n    r = b[tid]\nelif True:\n    r = 1.0\nout[tid] = r")])
def test_statement_reads_answer_what_the_function_index_answers(source):
    """The reads-only index drop_dead_stores uses gives FunctionIndex's reads for every statement
    and branch test (a bare name or literal test too), and so the same dead statements."""
    from synthesis.realism import FunctionIndex, StatementReads, dead_value_statements

    for fn in ast.parse(source).body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        full, light = FunctionIndex(fn), StatementReads(fn)
        statements = [n for n in ast.walk(fn) if isinstance(n, ast.stmt)]
        for node in [fn] + statements + [s.test for s in statements if isinstance(s, ast.If)]:
            assert light.reads(node) == full.reads(node)
        assert dead_value_statements(fn, light) == dead_value_statements(fn, full)


BOUNDS = [-np.inf, -2.0, -0.0, 0.0, 0.5, 2.0, np.inf, np.nan]


@pytest.mark.parametrize("op", ["<", "<=", ">", ">=", "==", "!="])
@pytest.mark.parametrize("ints", [(False, False), (True, True)])
def test_a_comparison_of_single_values_is_judged_as_over_arrays(op, ints):
    """Bounds that are single values (0-d) are compared in Python floats; over one-element arrays
    the numpy rules run: every bound combination (infinities, signed zeros, NaN) agrees."""
    from itertools import product

    from synthesis.realism import ConditionEvaluator, Interval

    class Given(ConditionEvaluator):
        def eval_Name(self, node):
            return self.env[node.id]

    node = ast.parse(f"a {op} b", mode="eval").body
    for al, ah, bl, bh in product(BOUNDS, repeat=4):
        single = Given({"a": Interval(al, ah, ints[0]), "b": Interval(bl, bh, ints[1])}, {}, {}).eval(node)
        arrays = Given({"a": Interval(np.array([al]), np.array([ah]), ints[0]),
                        "b": Interval(np.array([bl]), np.array([bh]), ints[1])}, {}, {}).eval(node)
        assert (single.lo.item(), single.hi.item()) == (arrays.lo[0], arrays.hi[0])


# ---- the checks' shortcuts against their definitions, on random function bodies -----------------
def _expressions(depth: int):
    from hypothesis import strategies as st

    leaves = st.sampled_from(["a[tid]", "b[tid]", "x", "r", "scale", "1.5", "2", "-0.5", "wp.pi", "True"])
    if depth == 0:
        return leaves
    sub = _expressions(depth - 1)
    return st.one_of(
        leaves,
        st.tuples(sub, st.sampled_from(["+", "-", "*", "<", "==", "and", "or"]), sub).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        sub.map(lambda e: f"-({e})"), sub.map(lambda e: f"(not {e})"),
        st.tuples(st.sampled_from(["wp.exp", "float", "wp.min", "wp.transpose", "wp.cross"]), sub, sub).map(
            lambda t: f"{t[0]}({t[1]})" if t[0] in ("wp.exp", "float", "wp.transpose") else f"{t[0]}({t[1]}, {t[2]})"),
        st.tuples(sub, sub, sub).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
    )


def _bodies(depth: int = 2):
    """Statement lists over a few names: assignments (plain, chained, annotated, augmented, a name
    to itself), stores, and if/else, for and while blocks holding more of them."""
    from hypothesis import strategies as st

    names = st.sampled_from(["x", "r", "t1"])
    expr = _expressions(2)
    simple = st.one_of(
        st.tuples(names, expr).map(lambda t: [f"{t[0]} = {t[1]}"]),
        st.tuples(names, names, expr).map(lambda t: [f"{t[0]} = {t[1]} = {t[2]}"]),
        st.tuples(names, expr).map(lambda t: [f"{t[0]}: float = {t[1]}"]),
        st.tuples(names, expr).map(lambda t: [f"{t[0]} += {t[1]}"]),
        names.map(lambda n: [f"{n} = {n}"]),
        names.map(lambda n: [f"{n} = float(0.0)"]),
        expr.map(lambda e: [f"out[tid] = {e}"]),
    )
    if depth == 0:
        return simple
    block = st.lists(_bodies(depth - 1), min_size=1, max_size=3).map(lambda parts: [line for p in parts for line in p])
    indent = lambda lines: ["    " + line for line in lines]  # noqa: E731
    return st.one_of(
        simple,
        st.tuples(expr, block, block).map(lambda t: [f"if {t[0]}:", *indent(t[1]), "else:", *indent(t[2])]),
        st.tuples(names, block).map(lambda t: [f"if {t[0]}:", *indent(t[1])]),
        block.map(lambda b: ["for i in range(3):", *indent(b)]),
        st.tuples(expr, block).map(lambda t: [f"while {t[0]}:", *indent(t[1]), "    break"]),
    )


def _reference_dead_value_statements(fn: ast.FunctionDef) -> list[ast.stmt]:
    """dead_value_statements' definition, without its shortcuts: every assigned name's first use
    looked up over the statements after it, each statement's reads from a walk of its own."""
    from synthesis.realism import _assigned_names, _is_literal_init, _loaded_names, first_use

    def blocks(body):
        out = [body]
        for stmt in body:
            for field in ("body", "orelse"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    out += blocks(inner)
        return out

    out = []
    read = _loaded_names(fn)
    for block in blocks(fn.body):
        for i, stmt in enumerate(block):
            if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and stmt.target.id not in read:
                out.append(stmt)
                continue
            names = _assigned_names(stmt)
            if any(name not in read for name in names):
                out.append(stmt)
                continue
            if isinstance(stmt, ast.Assign) and _is_literal_init(stmt.value):
                continue
            if any(first_use(block[i + 1:], name) == "assigned" for name in names):
                out.append(stmt)
    # names read only by statements that assign them (a variance updated in a loop, never read after it)

    def single_target(stmt):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
        if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and len(targets) == 1 \
                and isinstance(targets[0], ast.Name):
            return targets[0].id
        return None

    readers: dict[str, set[bool]] = {}
    for stmt in (n for n in ast.walk(fn) if isinstance(n, ast.stmt) and n is not fn):
        own = {ast.If: "test", ast.While: "test", ast.For: "iter"}.get(type(stmt))
        names = _loaded_names(getattr(stmt, own)) if own else _loaded_names(stmt)
        for name in names:
            readers.setdefault(name, set()).add(name == single_target(stmt))
    fed = {name for name, selves in readers.items() if selves == {True}}
    out += [stmt for block in blocks(fn.body) for stmt in block
            if single_target(stmt) in fed and all(stmt is not o for o in out)]
    return out


def _random_kernels():
    from hypothesis import strategies as st

    return st.lists(_bodies(), min_size=1, max_size=5).map(lambda parts: kernel("\n".join(l for p in parts for l in p)))


def _check_against_definitions(source: str) -> None:
    from synthesis.realism import FunctionIndex, StatementReads, dead_value_statements

    fn = ast.parse(source).body[-1]
    index = FunctionIndex(fn)
    expected = [id(s) for s in _reference_dead_value_statements(fn)]
    assert [id(s) for s in dead_value_statements(fn, index)] == expected
    assert [id(s) for s in dead_value_statements(fn, StatementReads(fn))] == expected
    for kinds in INDEX_KINDS:
        assert [id(n) for n in index.of_kind(*kinds)] == [id(n) for n in ast.walk(fn) if isinstance(n, kinds)]
    statements = [n for n in ast.walk(fn) if isinstance(n, ast.stmt)]
    for node in statements + [s.test for s in statements if isinstance(s, ast.If)]:
        assert index.reads(node) == {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    assert {id(n) for n in index.literal_only} == {id(n) for n in _outermost_literal_only(fn)}


OVERWRITES = [
    "x: float = a[tid]\nx = b[tid]\nout[tid] = x",  # an annotated value overwritten
    "x = x = a[tid]\nout[tid] = x",  # one statement assigning a name twice
    "x = r = a[tid]\nif b[tid] > 0.0:\n    x = 1.0\nelse:\n    r = x = 2.0\nout[tid] = x + r",
    "x = a[tid]\nfor i in range(3):\n    x = b[tid]\nx = 2.0\nout[tid] = x",
    "x = a[tid]\nif x:\n    x = b[tid]\nelif True:\n    x = 1.0\nout[tid] = x",
]


@pytest.mark.parametrize("source", [kernel(body) for body in OVERWRITES] + [kernel(p[1]) for p in PLANTED])
def test_dead_values_and_index_answer_their_definitions(source):
    """dead_value_statements (both indexes) finds what its definition finds, and FunctionIndex
    gives each statement's and branch test's reads, the checks' selections and the outermost
    literal-only computations as separate walks do."""
    _check_against_definitions(source)


def test_dead_values_and_index_answer_their_definitions_on_random_bodies():
    """As above on random bodies (many with dead values, overwrites in branches, chained and
    annotated assignments, literal-only and same-operand expressions)."""
    from hypothesis import given, settings

    settings(max_examples=150, deadline=None, derandomize=True)(given(_random_kernels())(_check_against_definitions))()


def test_a_bool_switch_argument_is_not_a_constant_condition():
    # `if calculate_norm:` tests a switch the caller flips between launches; the same test on an int
    # argument whose value the launch fixes is one the whole launch answers alike
    source = ("@wp.kernel\ndef k(a: wp.array(dtype=float), out: wp.array(dtype=float), calculate_norm: bool, n: int):\n"
              "    tid = wp.tid()\n    out[tid] = a[tid]\n    if calculate_norm:\n        out[tid] = a[tid] * 2.0\n"
              "    if n > 100:\n        out[tid] = a[tid] * 3.0\n")
    args = [ArgInfo("a", "input"), ArgInfo("out", "output"), ArgInfo("calculate_norm", "scalar", "bool", value=True),
            ArgInfo("n", "scalar", "int32", value=200)]
    lines = {f.line for f in find_patterns(source, (256,), args) if f.pattern == "constant_condition"}
    assert lines == {7}


def test_an_array_only_reset_by_an_exchange_is_zero_by_design_not_a_degenerate_output():
    import numpy as np

    from synthesis.realism import degenerate_outputs, reset_arrays

    source = """
@wp.kernel
def drain(counts: wp.array(dtype=int), flags: wp.array(dtype=int), seen: wp.array(dtype=int), mean: wp.array(dtype=float)):
    tid = wp.tid()
    n = wp.atomic_exch(counts, tid, 0)
    if wp.atomic_exch(flags, tid, -1) != 0:
        flags[tid] = 2
    if wp.atomic_exch(seen, n, 1) == 0:
        mean[tid] = float(n)
"""
    # flags is also stored otherwise; seen is claimed (exchanged with 1) and counts as a reset too
    assert reset_arrays(source) == {"counts", "seen"}
    zeros = np.zeros(8, dtype=np.int32)
    found = degenerate_outputs({"counts": zeros, "flags": zeros, "mean": zeros.astype(np.float32)}, {},
                               resets=reset_arrays(source))
    assert {(f.pattern, f.text) for f in found} == {("zero_output", "flags"), ("zero_output", "mean")}
