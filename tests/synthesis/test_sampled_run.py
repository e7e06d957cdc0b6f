"""synthesis.sampled_run: scalar kernels run as Python at sampled points, outputs judged."""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from synthesis.categories import multi_conditional
from synthesis.sampled_run import degenerate_written
from synthesis.spec import ArgSpec, KernelSpec

B = ArgSpec("b", "float32", "input", (64,), -2.0, 2.0, 10)
A = ArgSpec("a", "float32", "input", (64,), -2.0, 2.0, 10)
OUT = ArgSpec("out", "float32", "output", (64,), -4.0, 4.0, 10, bound=4.0)


def kernel(body: str, args=(A, B, OUT)) -> KernelSpec:
    params = ", ".join(f"{a.name}: wp.array(dtype=float)" for a in args)
    lines = "\n".join("    " + line for line in body.splitlines())
    source = f"@wp.kernel\ndef k({params}):\n    tid = wp.tid()\n{lines}\n"
    return KernelSpec("k", "test", "test", source, tuple(args), (64,), 1)


def test_an_input_copied_through_a_branch_that_is_always_taken_is_a_copy():
    # b <= 2.0 everywhere: the first arm always runs, so out is b
    body = "b_v = b[tid]\nr = float(0.0)\nif 2.0 > b_v:\n    r = b_v\nelse:\n    r = a[tid]\nout[tid] = r"
    assert degenerate_written(kernel(body)) == ["out: copy of b"]


def test_a_value_every_arm_sets_to_one_constant_is_constant():
    body = "r = float(1.5)\nif a[tid] > 0.0:\n    r = 1.5\nelif b[tid] > 0.0:\n    r = wp.abs(-1.5)\nout[tid] = r"
    assert degenerate_written(kernel(body)) == ["out: constant"]


def test_branches_that_choose_between_inputs_pass():
    body = "r = a[tid]\nif a[tid] > b[tid]:\n    r = b[tid] * 2.0\nout[tid] = wp.max(r, -1.0)"
    assert degenerate_written(kernel(body)) == []


def test_a_kernel_beyond_the_stand_in_is_not_judged():
    body = "v = wp.vec3(a[tid], 0.0, 0.0)\nout[tid] = wp.length(v)"
    assert degenerate_written(kernel(body)) == []


def test_an_output_that_differs_only_in_a_rare_branch_is_caught_below_share_one():
    # b == 2.0 is one input value in 4096: the second arm almost never runs
    body = "r = b[tid]\nif b[tid] >= 2.0:\n    r = a[tid]\nout[tid] = r"
    assert degenerate_written(kernel(body), share=0.9) == ["out: copy of b"]


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(min_value=0, max_value=2**31 - 1))
def test_multi_conditional_outputs_are_neither_constant_nor_copies(seed):
    # judged at other points than the generator's own check, and at every one of them
    spec = multi_conditional.generate(random.Random(seed), f"cond_{seed}", seed)
    assert degenerate_written(spec, points=64, seed=99) == []


def _judged_on_every_point(spec: KernelSpec, points: int, seed: int, share: float) -> list[str]:
    """degenerate_written's definition, over the full sampled_outputs (no early stop)."""
    from collections import Counter

    from synthesis.sampled_run import Unsupported, sampled_outputs

    try:
        outputs = sampled_outputs(spec, points, seed)
    except Unsupported:
        return []
    found = []
    for name, samples in outputs.items():
        if len(samples) < 2:
            continue
        if max(Counter(v for v, _ in samples).values()) >= share * len(samples):
            found.append(f"{name}: constant")
            continue
        for other in samples[0][1]:
            if sum(1 for v, own in samples if own[other] is not None and v == own[other]) >= share * len(samples):
                found.append(f"{name}: copy of {other}")
                break
    return found


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(min_value=0, max_value=2**31 - 1), st.sampled_from([0.5, 0.9, 1.0]), st.sampled_from([16, 64]))
def test_stopping_once_no_output_can_reach_the_share_changes_no_verdict(seed, share, points):
    # raw draws, before the generator's own check: about one in ten is degenerate
    rng = random.Random(seed)
    spec = multi_conditional.draw_kernel(rng, f"cond_{seed}", seed)
    assert degenerate_written(spec, points, seed % 7, share) == _judged_on_every_point(spec, points, seed % 7, share)


def test_an_output_written_through_an_alias_is_still_judged_on_every_point():
    # `o` hides writes to `out` from the text: no early stop, and the copy is still found
    body = "o = out\nr = b[tid]\nif b[tid] >= 2.0:\n    r = a[tid]\no[tid] = r"
    assert degenerate_written(kernel(body), points=64, share=0.9) == ["out: copy of b"]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), low=st.integers(-8, 8), width=st.integers(1, 5000), grid_bits=st.integers(0, 12),
       integer=st.booleans())
def test_an_input_drawer_makes_the_libraries_draws(seed, low, width, grid_bits, integer):
    """_drawer's inlined `_randbelow` gives, draw after draw, what randint/randrange give, and leaves
    the generator where they leave it."""
    from synthesis.sampled_run import _drawer

    step = 2.0 ** -grid_bits
    if integer:
        arg = ArgSpec("x", "int32", "input", (8,), low, low + width - 1, 0)
        expected = lambda r: r.randint(low, low + width - 1)  # noqa: E731
    else:
        arg = ArgSpec("x", "float32", "input", (8,), float(low), low + (width - 1) * step, grid_bits)
        span = int(round((arg.high - arg.low) / step))
        expected = lambda r: arg.low + step * r.randrange(span + 1)  # noqa: E731
    ours, library = random.Random(seed), random.Random(seed)
    draw = _drawer(arg, ours)
    assert [draw() for _ in range(20)] == [expected(library) for _ in range(20)]
    assert ours.random() == library.random()


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_the_runnable_source_is_the_kernel_without_its_decorator_and_annotations(seed):
    """_kernel_runs compiles the source with the signature written bare: the module must be the
    kernel's own but for the decorator and the (unevaluated) annotations."""
    import ast

    from synthesis.categories import generate
    from synthesis.sampled_run import _runnable_source

    spec = generate("multi_conditional", seed)
    original, runnable = ast.parse(spec.source), ast.parse(_runnable_source(spec))
    for node in ast.walk(original):
        if isinstance(node, ast.FunctionDef) and node.name == spec.name:
            node.decorator_list = []
            for arg in node.args.args:
                arg.annotation = None
    assert ast.dump(runnable) == ast.dump(original)
    assert _runnable_source(spec) != spec.source
