"""Where a per-element kernel reads and writes (Site) and how its computation is packaged (Core)."""
from __future__ import annotations

import ast
import random
import re

import numpy as np
import pytest

from synthesis.categories import matrix, vector
from synthesis.categories.matrix import MATRIX_FORMS
from synthesis.categories.rich import RichKernelWriter
from synthesis.categories.site import ACCESSES, Core, Site
from synthesis.categories.vector import VECTOR_FORMS
from tests.synthesis.forms import build
from tests.synthesis.python_run import draw_inputs, run


def written_elements(spec, seed: int) -> tuple[dict, dict]:
    inputs = draw_inputs(spec, seed)
    return inputs, run(spec, inputs)


@pytest.mark.parametrize("seed", range(6))
def test_an_active_set_updates_exactly_the_elements_its_index_array_names(seed):
    spec = build(vector, VECTOR_FORMS, "limit length", seed, access="active")
    ids = next(a for a in spec.args if a.role == "index")
    data = next(a for a in spec.args if a.role == "input")
    assert data.shape[0] > spec.dim[0]  # the set is a part of the elements
    inputs, got = written_elements(spec, seed)
    out = got[next(a.name for a in spec.args if a.role == "output")]
    named = set(inputs[ids.name].tolist())
    for element in range(data.shape[0]):
        assert (np.any(out[element] != 0.0) or np.all(inputs[data.name][element] == 0.0)) == (element in named)


def guarded(seed: int, feature: str):
    """The "angle between" form behind an early return of the kind `feature` names: the first seed
    from `seed` on that draws it."""
    while True:
        spec = build(vector, VECTOR_FORMS, "angle between", seed, access="guarded")
        if feature in spec.description:
            return spec, seed
        seed += 1


@pytest.mark.parametrize("seed", range(3))
def test_a_padded_launch_leaves_the_elements_past_its_count_alone(seed):
    spec, seed = guarded(100 * seed, "padded launch")
    count = next(a.value for a in spec.args if a.role == "scalar" and a.dtype == "int32")
    assert 0 < count < spec.dim[0]
    _, got = written_elements(spec, seed)
    out = got[next(a.name for a in spec.args if a.role == "output")]
    assert np.all(out[count:] == 0.0) and np.any(out[:count] != 0.0)


@pytest.mark.parametrize("kind", ["a mask per element", "a flag bit"])
@pytest.mark.parametrize("seed", range(3))
def test_an_element_marked_inactive_is_left_alone_and_every_other_is_written(kind, seed):
    spec, seed = guarded(100 * seed, kind)
    marks = next(a for a in spec.args if a.role == "input" and a.dtype == "int32")
    inputs, got = written_elements(spec, seed)
    out = got[next(a.name for a in spec.args if a.role == "output")]
    if kind == "a flag bit":
        bit = int(re.search(r"^[A-Z]+ = (?:wp\.constant\()?(\d+)", spec.source, re.M).group(1))
        assert bit in (1, 2, 4)
        active = (inputs[marks.name] & bit) != 0
    else:
        active = inputs[marks.name] != 0
    assert 0 < active.sum() < spec.dim[0]
    assert np.all(out[~active] == 0.0) and np.all(np.any(out[active] != 0.0, axis=-1) if out.ndim > 1 else out[active] != 0.0)


def test_a_grid_launch_reads_and_writes_2d_arrays():
    spec = build(vector, VECTOR_FORMS, "shading", 3, access="grid")
    assert "i, j = wp.tid()" in spec.source
    assert all(len(a.shape) == 2 for a in spec.args if a.role in ("input", "output"))


def test_every_access_is_used_by_some_form():
    used = {access for form in VECTOR_FORMS.values() for access in form.accesses}
    assert used == set(ACCESSES)


def test_a_packaged_computation_is_a_typed_function_named_for_what_it_does():
    w = RichKernelWriter(random.Random(0), "vec_0123abcd45", "vector", 0, (8,))
    site = Site(w, "own")
    core = Core(site, "reflect", as_func=True)
    v = core.param("v", "vec3", site.input(("vel",), "vec3"))
    n = core.let("n", f"wp.normalize({core.param('normal', 'vec3', site.input(('normals',), 'vec3'))})")
    call = core.result(f"{v} - 2.0 * wp.dot({v}, {n}) * {n}", "vec3")
    assert call == "reflect_0123abcd45(vel_v, normals_v)"
    fn = ast.parse(w.helpers[0]).body[0]
    assert fn.name == "reflect_0123abcd45" and ast.unparse(fn.returns) == "wp.vec3"
    assert [(a.arg, ast.unparse(a.annotation)) for a in fn.args.args] == [("v", "wp.vec3"), ("normal", "wp.vec3")]


def test_several_results_are_returned_as_an_annotated_tuple():
    w = RichKernelWriter(random.Random(0), "vec_0123abcd45", "vector", 0, (8,))
    site = Site(w, "own")
    core = Core(site, "split", as_func=True)
    v = core.param("v", "vec2", site.input(("vel",), "vec2"))
    core.result(f"{v} * 0.5, {v} * 2.0", ("vec2", "vec2"))
    assert "-> tuple[wp.vec2, wp.vec2]:" in w.helpers[0] and "return v * 0.5, v * 2.0" in w.helpers[0]


def test_inline_code_names_no_local_like_a_parameter():
    w = RichKernelWriter(random.Random(0), "vec_0123abcd45", "vector", 0, (8,))
    site = Site(w, "own")
    w.add_array("n", "vec3", "input")
    core = Core(site, "reflect", as_func=False)
    assert core.let("n", "wp.vec3(1.0, 0.0, 0.0)") != "n"


def test_a_vector_result_of_per_component_inputs_is_written_one_array_per_component():
    """Inputs as `pos_x, pos_y, pos_z`: the result mostly leaves the same way, from one local."""
    for seed in range(20):
        w = RichKernelWriter(random.Random(seed), "vec_0123abcd45", "vector", seed, (8,))
        w.output_update_share = w.intermediate_output_share = 0.0
        site = Site(w, "own")
        site.split_vectors = True
        pos = site.input(("pos",), "vec3")
        stem = site.store(("moved",), "vec3", f"{pos} * 2.0", 4.0)
        if stem != "moved" or "moved_x" not in {a.name for a in w.args}:
            continue
        spec = w.finish("test")
        assert "moved = pos_v * 2.0" in spec.source and "moved_z[tid] = moved[2]" in spec.source, spec.source
        inputs = draw_inputs(spec, seed)
        got = run(spec, inputs)
        for axis in "xyz":
            np.testing.assert_allclose(got[f"moved_{axis}"], 2.0 * inputs[f"pos_{axis}"], atol=1e-12)
        return
    pytest.fail("no seed wrote the result per component")


TABLES = [(vector, VECTOR_FORMS, name) for name in sorted(VECTOR_FORMS)] + \
    [(matrix, MATRIX_FORMS, name) for name in sorted(MATRIX_FORMS)]


@pytest.mark.parametrize("module, forms, name", TABLES, ids=[t[2] for t in TABLES])
@pytest.mark.parametrize("seed", range(4))
def test_a_helper_function_computes_what_the_inline_code_computes(module, forms, name, seed):
    """Packaging a form's computation as a @wp.func changes the code, never a result."""
    inline = build(module, forms, name, seed, as_func=False)
    packaged = build(module, forms, name, seed, as_func=True)
    if inline.source == packaged.source or [a.name for a in inline.args] != [a.name for a in packaged.args]:
        return  # nothing to package on this draw (colour interpolation, a second output reading the
        # inline locals), or the draw took another turn (a tuple return asked for)
    assert "@wp.func" in packaged.source and "@wp.func" not in inline.source
    inputs = draw_inputs(inline, seed)
    a, b = run(inline, inputs), run(packaged, inputs)
    for key in a:
        np.testing.assert_allclose(a[key], b[key], atol=1e-12)
