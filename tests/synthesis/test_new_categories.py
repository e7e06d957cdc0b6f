"""The categories that write the Warp real code uses: stencil, transform, particles."""
from __future__ import annotations

import ast
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cuda_production.host_check import run_on_host
from cuda_production.reference import input_seed, sample_args, warp_reference
from cuda_production.sample import write_sample
from cuda_production.templates import Tolerance
from cuda_production.translator import translate_kernel
from synthesis.categories import CATEGORY_NAMES, generate
from synthesis.constructs import inventory_source
from synthesis.dtypes import dtype

NEW = ("stencil", "transform", "particles")

# Constructs each category exists to emit (the list), checked over a modest number of seeds.
SIGNATURE = {
    "stencil": {"index offset (neighbour)", ".shape", "early return", "chained comparison", "call wp.lerp",
                "helper returns tuple", "helper param array ndim 2", "helper param int32", "helper early return",
                "module constant wp.constant", "module global numeric", "@wp.kernel option enable_backward",
                "keyword argument to builtin", "wp.pi", "operator **", "call wp.mod", "param array ndim 3",
                "augmented assign array element *=", "augmented assign local -=", "param by-value vec2",
                "call wp.static"},
    "transform": {"param by-value transform", "param by-value quat", "param by-value mat33", "array dtype transform",
                  "array dtype quat", "call wp.transform_point", "call wp.transform_vector", "call wp.quat_rotate",
                  "call wp.quat_rotate_inv", "call wp.quat_from_axis_angle", "call wp.quat_rpy", "call wp.mul",
                  "call wp.transform_inverse", "call wp.inverse", "call wp.diag", "call wp.quat_to_matrix", "call wp.smoothstep",
                  "call wp.radians", "call wp.mat33", "gather through index array", "helper param by-value vec4"},
    "particles": {"param struct", "struct field float32", "struct field vec3", "struct field mat33",
                  "struct field array ndim 1", "struct field read", "helper param struct",
                  "augmented assign array element +=", "augmented assign array element -=", "call wp.atomic_add",
                  "early return", "gather through index array"},
}


def test_new_categories_are_registered():
    assert set(NEW) <= set(CATEGORY_NAMES)


@pytest.mark.parametrize("category", NEW)
def test_category_emits_its_constructs(category):
    emitted = set()
    for seed in range(120):
        for k in inventory_source(generate(category, seed).source):
            emitted |= k.constructs
    assert SIGNATURE[category] - emitted == set()


@settings(max_examples=60, deadline=None)
@given(category=st.sampled_from(NEW), seed=st.integers(0, 2**62))
def test_arguments_describe_the_source(category, seed):
    """Struct arguments list the class's fields in order; by-value values have the type's width."""
    spec = generate(category, seed)
    tree = ast.parse(spec.source)
    classes = {c.name: [s.target.id for s in c.body] for c in tree.body if isinstance(c, ast.ClassDef)}
    kernel = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == spec.name)
    assert [a.arg for a in kernel.args.args] == [a.name for a in spec.args]
    for arg in spec.args:
        if arg.role == "struct" or arg.is_records:
            assert [f.name for f in arg.fields] == classes[arg.dtype]
        elif isinstance(arg.value, tuple):
            assert len(arg.value) == dtype(arg.dtype).width


@settings(max_examples=30, deadline=None)
@given(category=st.sampled_from(NEW), seed=st.integers(0, 2**62))
def test_generation_is_pure(category, seed):
    assert generate(category, seed) == generate(category, seed)


def _written_parts(spec, blob: bytes):
    offset = 0
    for arg in spec.args:
        for f in arg.flattened():
            if f.is_written:
                n = f.count * f.width
                yield f, np.frombuffer(blob[4 * offset:4 * (offset + n)], dtype=np.int32 if f.is_int else np.float32)
                offset += n


def test_outputs_stay_within_their_bounds_and_vary():
    specs = [generate(c, seed) for c in NEW for seed in range(8)]
    expected = warp_reference(specs, "t_new_categories_bounds")
    for spec in specs:
        for field, values in _written_parts(spec, expected[spec.name]):
            assert np.all(np.isfinite(values)), (spec.name, field.name)
            assert np.abs(values).max() <= field.bound, (spec.name, field.name)
            # not a constant output (a one-element sum: not zero)
            assert len(np.unique(values)) > 1 if values.size > 1 else values[0] != 0.0, (spec.name, field.name)


def _assert_equal_to_warp_on_the_host(tmp_path, spec, expected: bytes) -> None:
    """The spec translated, written as a sample with Warp's `expected` outputs, run on the host: passes."""
    kernel = translate_kernel(spec.source, spec.name, f"{spec.name}.py")
    folder = write_sample(tmp_path / spec.name, kernel, spec.source, sample_args(spec), spec.dim, input_seed(spec),
                          Tolerance(), expected, {"category": spec.category, "description": spec.description})
    run = run_on_host(folder)
    assert run.passed, run.output[-2000:]


@pytest.mark.parametrize("category", NEW)
def test_translated_sample_equals_warp_on_the_host(tmp_path, category):
    spec = generate(category, 3)
    expected = warp_reference([spec], f"t_new_host_{category}")[spec.name]
    _assert_equal_to_warp_on_the_host(tmp_path, spec, expected)


def test_a_decaying_accumulator_stencil_equals_warp_on_the_host(tmp_path):
    """`out[i] *= DECAY` then `out[i] += value` on an output that holds values on entry (inout), as a
    trail or history buffer is written: translated and run on the host against Warp."""
    spec = next(s for s in (generate("stencil", seed) for seed in range(400)) if "decayed accumulation" in s.description)
    out = next(a for a in spec.args if a.role == "inout")
    assert f"{out.name}[" in spec.source and "] *= " in spec.source and "] += " in spec.source
    expected = warp_reference([spec], "t_new_decayed_accumulation")[spec.name]
    _assert_equal_to_warp_on_the_host(tmp_path, spec, expected)


def _residual_stencil():
    return next(s for s in (generate("stencil", seed) for seed in range(800))
                if "bool argument asks" in s.description and "interior test" in s.description)


def test_a_sweep_sums_its_squared_change_when_its_bool_argument_asks():
    """The residual variant: a `bool` parameter (True in the sample) switches on the sum of
    (new - old)^2 over the cells the sweep updates, into a one-element output; Warp's sum equals
    numpy's over the new iterate the kernel stored and the field it read."""
    from cuda_production.reference import make_input

    spec = _residual_stencil()
    flag = next(a for a in spec.args if a.dtype == "bool")
    assert flag.role == "scalar" and flag.value is True and f"if {flag.name}:" in spec.source
    field = spec.args[0]
    new, norm = (a for a in spec.args if a.role == "output")
    assert norm.shape == (1,) and new.shape == field.shape
    values = {a.name: make_input(a, k, input_seed(spec)) for k, a in enumerate(sample_args(spec)) if a.kind == "array"}
    blob = np.frombuffer(warp_reference([spec], "t_new_residual")[spec.name], dtype=np.float32)
    stored, total = blob[:new.size].reshape(new.shape), blob[new.size]
    old = np.asarray(values[field.name], dtype=np.float64).reshape(field.shape)
    inner = tuple(slice(1, -1) for _ in field.shape)  # the interior test: border cells copy the field
    want = np.sum((stored[inner].astype(np.float64) - old[inner]) ** 2)
    assert want > 0.0
    np.testing.assert_allclose(total, want, rtol=1e-4)


def test_a_residual_stencil_equals_warp_on_the_host(tmp_path):
    spec = _residual_stencil()
    expected = warp_reference([spec], "t_new_residual_host")[spec.name]
    _assert_equal_to_warp_on_the_host(tmp_path, spec, expected)


def test_a_spring_damper_resists_the_relative_velocity_along_its_spring(tmp_path):
    """The damped spring form: force = n * (k * (l - rest) + c * dot(v_j - v_i, n)), the damping
    coefficient its own parameter (not the integrator's velocity factor); equal to Warp on the host."""
    spec = next(s for s in (generate("particles", seed) for seed in range(400)) if "spring-damper" in s.description)
    assert ".spring_damping * wp.dot(" in spec.source and (".vel[" in spec.source or "].vel - " in spec.source)
    assert ".damping" not in spec.source.replace(".spring_damping", "")
    expected = warp_reference([spec], "t_new_spring_damper")[spec.name]
    _assert_equal_to_warp_on_the_host(tmp_path, spec, expected)


def _static_taps(plain: bool):
    """A stencil filtering with taps in a module tuple through wp.static: `plain`, one whose output is
    the filtered value alone (binomial taps written as literals, no term, decay or update on top)."""
    for seed in range(600):
        spec = generate("stencil", seed)
        if "wp.static" not in spec.source:
            continue
        if not plain:
            return spec
        if "binomial 3-tap" in spec.description or "binomial 5-tap" in spec.description:
            if " term" not in spec.description and "*=" not in spec.source \
                    and [a.role for a in spec.args if a.role in ("output", "inout")] == ["output"]:
                return spec
    raise AssertionError("no such stencil in 600 seeds")


def test_a_static_taps_filter_equals_numpy_convolution():
    """The taps tuple, read through `wp.static(TAPS[k])` in a loop Warp unrolls, weights the field
    along the described axis, the sampler's border rule (guarded: zero outside; clamped: the edge
    value) applying: Warp's output equals the convolution numpy computes from the tuple."""
    from cuda_production.reference import make_input

    spec = _static_taps(plain=True)
    tree = ast.parse(spec.source)
    taps = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
                and isinstance(n.value, ast.Tuple))
    axis = "xyz".index(spec.description.split("filter along axis ")[1][0])
    field, out = spec.args[0], next(a for a in spec.args if a.role == "output")
    values = {a.name: make_input(a, k, input_seed(spec)) for k, a in enumerate(sample_args(spec)) if a.kind == "array"}
    u = np.asarray(values[field.name], dtype=np.float64).reshape(field.shape)
    half = len(taps) // 2
    pad = [(half, half) if k == axis else (0, 0) for k in range(u.ndim)]
    padded = np.pad(u, pad, mode="constant" if "guarded sampler" in spec.description else "edge")
    want = np.zeros_like(u)
    for k, weight in enumerate(taps):
        want += weight * np.take(padded, range(k, k + u.shape[axis]), axis=axis)
    got = np.frombuffer(warp_reference([spec], "t_new_static_taps")[spec.name], dtype=np.float32)
    np.testing.assert_allclose(got[:out.size].reshape(out.shape), want, rtol=1e-6, atol=1e-6)


def test_a_static_taps_stencil_equals_warp_on_the_host(tmp_path):
    """Translated: the taps a `__constant__` array, the loop unrolled; equal to Warp on the host."""
    spec = _static_taps(plain=False)
    expected = warp_reference([spec], "t_new_static_taps_host")[spec.name]
    _assert_equal_to_warp_on_the_host(tmp_path, spec, expected)


def _records_kernels(feature: str | None = None, count: int = 1):
    """Particle kernels holding their particles as an array of records (with `feature` in their description)."""
    found = []
    for seed in range(600):
        spec = generate("particles", seed)
        if any(a.is_records for a in spec.args) and (feature is None or feature in spec.description):
            found.append(spec)
            if len(found) == count:
                return found
    raise AssertionError(f"no records kernel with {feature!r} in 600 seeds")


def test_particles_come_as_structs_of_arrays_and_as_arrays_of_records():
    """Both layouts real code uses, in about the designed share (RECORDS_SHARE 0.4)."""
    from synthesis.categories.particles import RECORD_CLASSES, RECORDS_SHARE

    layouts = [any(a.is_records and a.dtype in RECORD_CLASSES for a in generate("particles", seed).args)
               for seed in range(300)]
    assert abs(sum(layouts) / len(layouts) - RECORDS_SHARE) < 0.1


def test_a_record_member_is_written_exactly_when_the_kernel_writes_it():
    """Each member's role agrees with the translator's reading of the kernel: a member only read is an
    input, unless the record is stored back whole (`particles[tid] = p` writes every member). A
    disagreement would make main() read a different number of Warp's values than expected.bin holds."""
    specs = _records_kernels(count=40)
    assert any("record copied" in s.description for s in specs)
    assert any("record copied" not in s.description for s in specs)
    for spec in specs:
        kernel = translate_kernel(spec.source, spec.name, f"{spec.name}.py")
        params = {p.name: p for p in kernel.params}
        for arg in (a for a in spec.args if a.is_records):
            members = {f.name: f.written for f in params[arg.name].fields}
            assert {f.name: f.is_written for f in arg.fields} == members, spec.source
            if "record copied" in spec.description:
                assert all(members.values()), spec.source


@pytest.mark.parametrize("feature", ["record copied", "helper taking and returning a record", "spring forces scattered", None])
def test_an_array_of_records_equals_warp_on_the_host(tmp_path, feature):
    """Records copied and stored back whole; members of other particles' records updated with `+=`
    (atomic in Warp, atomicAdd in the .cu); any other records kernel: equal to Warp on the host."""
    spec = _records_kernels(feature)[0]
    records = next(a for a in spec.args if a.is_records)
    assert f"{records.name}: wp.array(dtype={records.dtype})" in spec.source
    expected = warp_reference([spec], f"t_records_{(feature or 'any').replace(' ', '_')}")[spec.name]
    _assert_equal_to_warp_on_the_host(tmp_path, spec, expected)


@pytest.mark.parametrize("spelling", ["struct built with every member named", "struct zeroed, then filled member by member"])
def test_contact_records_equal_warp_on_the_host(tmp_path, spelling):
    """A contact record per particle, built whole or member by member, zeroed out of contact."""
    spec = next(s for s in (generate("particles", seed) for seed in range(600)) if spelling in s.description)
    expected = warp_reference([spec], f"t_contacts_{spelling.split()[1]}")[spec.name]
    _assert_equal_to_warp_on_the_host(tmp_path, spec, expected)


def test_a_contact_lies_on_the_surface_it_touches():
    """Warp's own values: a contact's depth is positive, its normal a unit vector, its point on the
    ground plane (y = ground) or on the sphere (|point - center| = radius); no contact, all zero."""
    from synthesis.categories.particles import CONTACT_CLASSES

    found = [s for s in (generate("particles", seed) for seed in range(400))
             if any(a.dtype in CONTACT_CLASSES for a in s.args)]
    specs = [s for s in found if "sphere" in s.description][:6] + [s for s in found if "ground plane" in s.description][:6]
    results = warp_reference(specs, "t_contacts_surface")
    checked = 0
    for spec in specs:
        parts = {f.name: v for f, v in _written_parts(spec, results[spec.name])}
        contact = next(a for a in spec.args if a.dtype in CONTACT_CLASSES)
        params = next(a for a in spec.args if a.role == "struct" and any(f.name in ("ground", "center") for f in a.fields))
        values = {f.name: f.value for f in params.fields}
        n = contact.shape[0]
        depth, normal, point = parts["depth"], parts["normal"].reshape(n, 3), parts["point"].reshape(n, 3)
        touching = depth > 0
        assert touching.any() and (~touching).any(), spec.source
        assert np.all(depth[touching] > 0) and np.allclose(np.linalg.norm(normal[touching], axis=1), 1.0, atol=1e-5)
        if "sphere" in spec.description:
            radius = np.linalg.norm(point[touching] - np.array(values["center"]), axis=1)
            assert np.allclose(radius, values["sphere_radius"], atol=1e-5)
        else:
            assert np.all(point[touching, 1] == values["ground"])
        assert not normal[~touching].any() and not point[~touching].any()
        checked += 1
    assert checked == 12


def _members_read_elsewhere_and_written_here(source: str) -> set[tuple[str, str]]:
    """(array, member) pairs one thread reads at other particles' indices (`p[j].vel`, `s.vel[j]`)
    and writes at its own (`p[tid].vel = ...`, `s.vel[tid] += ...`, or a whole record `p[tid] = r`)."""
    import re

    kernel = source[source.index("@wp.kernel"):]
    write = r" (?:=|\+=|-=|\*=) "
    others = set(re.findall(r"(\w+)\[(?!tid\])[^\]]+\]\.(\w+)", kernel)) | set(re.findall(r"(\w+)\.(\w+)\[(?!tid\])\w", kernel))
    own = set(re.findall(r"(\w+)\[tid\]\.(\w+)" + write, kernel)) | set(re.findall(r"(\w+)\.(\w+)\[tid\]" + write, kernel))
    whole = set(re.findall(r"^\s*(\w+)\[tid\] = ", kernel, re.M))
    own |= {(array, member) for array, member in others if array in whole}
    # springs add forces into other particles atomically and never read them
    return {(array, member) for array, member in others & own if member != "force"}


def test_no_thread_reads_a_member_another_thread_writes():
    """A body reading other particles' positions or velocities (springs, densities) never shares a
    launch with one writing the thread's own (integration, jitter, collisions): on the GPU the
    threads run at once, and the read would see an old or a new value as they happen to run."""
    racy = {}
    for seed in range(600):
        spec = generate("particles", seed)
        members = _members_read_elsewhere_and_written_here(spec.source)
        if members:
            racy[spec.name] = members
    assert not racy, racy


PARTICLE_FACTORS = {"drag": r"v_(?:new|out) = \w+ \* \(1\.0 - {f}\)", "age": r"v_(?:new|out) = \w+ \* wp\.exp\(-{f}\)",
                    "damage": r"f_total = \w+ \* \(1\.0 - {f}\)", "stiffness scale": r"f_total = {f} \* \w+"}


def test_a_per_particle_factor_acts_on_the_quantity_its_name_says():
    """A drag or an age on a velocity (`v_new`), a damage or a stiffness scale on a spring's force
    (`f_total`); a density or a kinetic energy is stored as the sum makes it, with no factor (a drag
    scaling a density, or a temperature a kinetic energy, is no physics)."""
    seen = set()
    for seed in range(500):
        spec = generate("particles", seed)
        for factor, form in PARTICLE_FACTORS.items():
            if f"per-particle {factor}" not in spec.description:
                continue
            seen.add(factor)
            array = factor.replace(" ", "_")
            used = rf"(?:{array}\[tid\]|{array}_v)"  # read in place or through its local
            assert re.search(form.format(f=used), spec.source), spec.source
        assert not re.search(r"\.density\[tid\] = rho \*|ke = 0\.5 \* .*\n\s+ke = ", spec.source), spec.source
        assert not re.search(r"per-particle (charge|temperature|radius scale)", spec.description)
    assert seen == set(PARTICLE_FACTORS)


def _field_inputs(spec) -> dict:
    """Every hashed input array, struct members included, by member name (`pos`, `vel`, `age`)."""
    from cuda_production.reference import make_input

    seed, out, position = input_seed(spec), {}, 0
    for arg in sample_args(spec):
        for f in arg.flattened():
            if f.is_array:
                out[f.name] = make_input(f, position, seed)
            position += 1
    return out


def test_a_ground_collision_reflects_a_falling_particle_and_pushes_a_resting_one_out_within_a_step():
    """Warp's own values against numpy: below the ground and falling, the vertical velocity reflected and
    damped by the restitution; below it and not falling (with a time step), at least (ground - y) / dt,
    out within one step; above it, unchanged; then a drag or an age factor where drawn."""
    def collision_only(s) -> bool:  # the collision alone: positions only read, no integration after it
        return "helper taking a struct" in s.description and "ground" in s.source and \
            all(f.role == "input" for a in s.args for f in a.fields if f.name == "pos")
    specs = [s for s in (generate("particles", seed) for seed in range(600)) if collision_only(s)][:8]
    results = warp_reference(specs, "t_ground_collision")
    pushed = 0
    for spec in specs:
        given = _field_inputs(spec)
        params = {f.name: f.value for a in spec.args if a.role == "struct" for f in a.fields if not f.is_array}
        x, v = given["pos"].reshape(-1, 3).astype(np.float64), given["vel"].reshape(-1, 3).astype(np.float64)
        below, falling = x[:, 1] < params["ground"], v[:, 1] < 0.0
        want = v.copy()
        want[below & falling, 1] = -v[below & falling, 1] * params["restitution"]
        if "dt" in params:
            out = below & ~falling
            want[out, 1] = np.maximum(v[out, 1], (params["ground"] - x[out, 1]) / params["dt"])
            pushed += int(out.sum())
        for name, factor in (("drag", lambda f: 1.0 - f), ("age", lambda f: np.exp(-f))):
            if f"per-particle {name}" in spec.description:
                want *= factor(given[name].astype(np.float64))[:, None]
        got = dict((f.name, values) for f, values in _written_parts(spec, results[spec.name]))["vel"]
        np.testing.assert_allclose(got.reshape(-1, 3), want, rtol=1e-5, atol=1e-5, err_msg=spec.source)
    assert len(specs) == 8 and pushed > 0


def _own_element_stores_and_reloads(source: str) -> tuple[list[str], list[str]]:
    """In a particle kernel's body (its top-level statements): the element texts stored to a parameter's
    array more than once (`state.vel[tid]`, `particles[tid].vel`; a local copy's `p.vel` is no array),
    and those loaded again after being stored."""
    fn = next(f for f in ast.parse(source).body if isinstance(f, ast.FunctionDef) and ast.unparse(f.decorator_list[0]).startswith("wp.kernel"))
    params = {a.arg for a in fn.args.args}
    stored, twice, reloaded = set(), [], []

    def base(node):
        while isinstance(node, (ast.Subscript, ast.Attribute)):
            node = node.value
        return node.id if isinstance(node, ast.Name) else None

    for statement in fn.body:
        loads = {ast.unparse(n) for n in ast.walk(statement)
                 if isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.ctx, ast.Load)}
        reloaded += sorted(loads & stored)
        targets = statement.targets if isinstance(statement, ast.Assign) else \
            [statement.target] if isinstance(statement, ast.AugAssign) else []
        for target in targets:
            if isinstance(target, (ast.Subscript, ast.Attribute)) and base(target) in params:
                text = ast.unparse(target)
                if text in stored and isinstance(statement, ast.Assign):
                    twice.append(text)
                stored.add(text)
    return twice, reloaded


def test_a_particle_kernel_stores_each_member_once_and_keeps_what_it_stored():
    """A person keeps the velocity they stored for the kinetic energy and steps it once: session 59 found
    `vi = state.vel[tid]` right after `state.vel[tid] = v_new` (38% of particle kernels), a velocity stored,
    then stepped again by a ground contact and stored over (8%, `state.pos[tid]` read back for the contact),
    and a velocity scaled by two per-particle drags."""
    stepped = 0
    for seed in range(600):
        spec = generate("particles", seed)
        twice, reloaded = _own_element_stores_and_reloads(spec.source)
        assert not twice and not reloaded, spec.source
        assert sum(f"per-particle {f}" in spec.description for f in ("drag", "age")) <= 1, spec.source
        stepped += "integration" in spec.description and "helper taking a struct" in spec.description
    assert stepped >= 20


# Each particle body by the description feature it always leaves.
PARTICLE_BODIES = {"integrate": "integration", "springs": "spring forces scattered", "density": "neighbour density",
                   "collide": "helper taking a struct", "kinetic_energy": "energy reduction", "jitter": "random jitter",
                   "contacts": " contacts"}


def test_a_particle_kernel_holds_one_step():
    """Two particle bodies share a kernel only where they make one step (a move then a ground bounce or an
    energy report, a bounce with an obstacle's contact records): never an SPH density beside contacts, nor
    a spring per thread beside an energy per particle."""
    from synthesis.categories.particles import CONFLICTS, STEPS

    steps = {frozenset(f.__name__ for f in step) for step in STEPS}
    assert not {frozenset(step) for step in STEPS} & CONFLICTS  # threads of one step never race
    pairs = 0
    for seed in range(600):
        spec = generate("particles", seed)
        if "struct arguments" not in spec.description:
            continue
        held = frozenset(b for b, feature in PARTICLE_BODIES.items() if feature in spec.description)
        assert 1 <= len(held) <= 2, spec.description
        pairs += len(held) == 2
        assert len(held) == 1 or held in steps, spec.description
    assert pairs >= 40
