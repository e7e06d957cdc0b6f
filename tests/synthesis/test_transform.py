"""The transform category's rotational dynamics (`transform.inertia`): each output, run by Warp on the
CPU, is the physics in numpy. R is the body's rotation (its normalised quaternion), I its body inertia
(principal moments on the diagonal, or the tensor passed by value; an armature added on the diagonal):
the angular acceleration R I^-1 (R^T tau), with the gyroscopic term, R I^-1 (R^T tau - w_b x I w_b) for
w_b = R^T w; the angular momentum R I w_b; the kinetic energy w_b . I w_b / 2; the world inertia R I R^T."""
from __future__ import annotations

import functools
import re

import numpy as np

from synthesis.categories import generate, transform
from tests.cuda_production.harness import warp_runs

FORMS = ("Euler's equations", "angular momentum", "rotational kinetic energy", "inertia rotated into the world frame",
         "wp.inverse")


def quat_matrix(q: np.ndarray) -> np.ndarray:
    """Warp's quat_to_matrix of (x, y, z, w), normalised."""
    x, y, z, w = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


@functools.lru_cache(maxsize=None)
def _runs():
    """Inertia kernels whose rotation is their own element of a quaternion array."""
    specs = []
    for seed in range(1500):
        s = generate("transform", seed)
        if "normalised quaternion array" in s.description and any(f in s.description for f in FORMS) \
                and re.search(r"q = wp\.normalize\(\w+\[tid\]\)", s.source):
            specs.append(s)
        if len(specs) == 40:
            break
    return warp_runs(specs, "test_transform_inertia")


def _arg(spec, names):
    return next((a for a in spec.args if a.name in names), None)


def _body_inertia(spec, given) -> np.ndarray:
    n = spec.dim[0]
    moments = _arg(spec, ("inertia_diag", "principal_moments", "I_diag"))
    if moments is not None:
        inertia = np.stack([np.diag(m) for m in given[moments.name].astype(np.float64)])
    else:
        inertia = np.broadcast_to(np.array(_arg(spec, ("I_body", "inertia", "I_local")).value).reshape(3, 3), (n, 3, 3))
    armature = re.search(r"^(?:ARMATURE|ROTOR_INERTIA) = (?:wp\.constant\()?([\d.]+)", spec.source, re.M)
    return inertia + (float(armature.group(1)) * np.eye(3) if armature else 0.0)


def _weighted(spec, given, out: str) -> np.ndarray:
    """The per-element weight a stored vector is multiplied by (`wt * ...`), ones where none."""
    m = re.search(rf"^    {out}\[tid\] = (\w+)(\[tid\])? \* ", spec.source, re.M)
    if m is None:
        return np.ones(spec.dim[0])
    local = m.group(1)
    if m.group(2):  # the weight read in place
        return given[local].astype(np.float64)
    array = re.search(rf"^    {local} = (\w+)\[tid\]$", spec.source, re.M)
    return given[array.group(1) if array else {"wt": "weights", "g": "gain", "s": "scale"}[local]].astype(np.float64)


def test_every_rotational_output_is_the_rigid_body_physics():
    runs = _runs()
    seen = set()
    for spec, given, written in runs:
        quats = next(a for a in spec.args if a.dtype == "quat" and a.role == "input")
        R = np.stack([quat_matrix(q) for q in given[quats.name].astype(np.float64)])
        inertia = _body_inertia(spec, given)
        omega, torque = _arg(spec, ("omega", "ang_vel", "omega_world")), _arg(spec, ("torque", "tau", "tau_ext"))
        w_b = np.einsum("nji,nj->ni", R, given[omega.name]) if omega is not None else None
        tau_b = np.einsum("nji,nj->ni", R, given[torque.name]) if torque is not None else None
        Iw = np.einsum("nij,nj->ni", inertia, w_b) if w_b is not None else None
        for out, want, form in (
                (("alpha", "ang_acc"), None, "acceleration"), (("L", "ang_mom"), None, "momentum"),
                (("kinetic_energy", "rot_energy", "ke"), None, "energy"),
                (("I_world", "inertia_world", "world_inertia"), None, "world")):
            arg = _arg(spec, out)
            if arg is None or arg.role != "output":
                continue
            if form == "acceleration":
                rhs = tau_b - np.cross(w_b, Iw) if "Euler's equations" in spec.description else tau_b
                want = np.einsum("nij,nj->ni", R, np.linalg.solve(inertia, rhs[..., None])[..., 0])
                form += " (Euler)" if "Euler's equations" in spec.description else ""
            elif form == "momentum":
                want = np.einsum("nij,nj->ni", R, Iw)
            elif form == "energy":
                want = 0.5 * np.einsum("ni,ni->n", w_b, Iw)
            else:
                want = (R @ inertia @ R.transpose(0, 2, 1)).reshape(len(R), 9)
            if want.ndim == 2 and want.shape[1] == 3:
                want = want * _weighted(spec, given, arg.name)[:, None]
            got = written[arg.name].reshape(want.shape)
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * max(1.0, np.abs(want).max()),
                                       err_msg=spec.source)
            seen.add(form)
    assert seen == {"acceleration", "acceleration (Euler)", "momentum", "energy", "world"}, seen


def test_gravity_is_added_only_to_a_velocity_taken_to_the_world_frame():
    """`v_rot + g * DT` only where v_rot is a body velocity rotated to the world frame (quat_rotate), the
    frame gravity is given in: never a normal, a direction or a force, nor a vector rotated into the body."""
    added = 0
    for seed in range(800):
        source = generate("transform", seed).source
        m = re.search(r"(\w+) \+ (?:gravity|g|accel) \* (?:DT|STEP)\b", source)
        if m is None or m.group(1) != "v_rot":
            continue
        added += 1
        rotated = re.search(r"v_rot = wp\.(quat_rotate(?:_inv)?)\(\w+, (\w+)(\[tid\])?\)", source)
        assert rotated.group(1) == "quat_rotate", source
        array = rotated.group(2) if rotated.group(3) else \
            re.search(rf"^    {rotated.group(2)} = (\w+)\[tid\]$", source, re.M).group(1)  # loaded into a local
        assert re.fullmatch(r"(vel|v_local)\d*", array), source
    assert added >= 5


def test_only_a_force_is_scaled_by_a_per_element_gain():
    """A per-point gain (a stiffness, an activation) scales a force; a rotated direction, a velocity or
    an angular momentum scaled by a weight array describes nothing."""
    weighted = 0
    for seed in range(600):
        spec = generate("transform", seed)
        if "weighted per element" not in spec.description:
            continue
        gain = next(a.name for a in spec.args if a.name in ("weights", "gain", "scale"))
        loaded = re.search(rf"^    (\w+) = {gain}\[tid\]$", spec.source, re.M)  # or read in place
        operand = loaded.group(1) if loaded else rf"{gain}\[tid\]"
        # the store that scales by it (perhaps smoothed toward: `f = (1 - r) * f + r * (s * ...)`)
        stores = re.findall(rf"^    (\w+)\[tid\] \+?= .*(?<![\w.]){operand} \* ", spec.source, re.M)
        forces = {"force", "f_out", "contact_force", "f_contact", *transform.WORLD_VEC_NAMES["forces"]}
        assert stores and set(stores) <= forces, spec.source
        weighted += 1
    assert weighted >= 10


def _vector_taken_to_the_world(spec) -> str | None:
    """The input array whose element `wp.transform_vector` takes to the world frame, if any."""
    m = re.search(r"v_world = wp\.transform_vector\(\w+, (\w+)(\[tid\])?\)", spec.source)
    if m is None:
        return None
    if m.group(2):
        return m.group(1)
    return re.search(rf"^    {m.group(1)} = (\w+)\[tid\]$", spec.source, re.M).group(1)


def test_a_vector_taken_to_the_world_keeps_its_kind_and_only_a_velocity_moves_a_point():
    """A normal stays a normal (`n_world`, not `world_vel`), a force a force; a point is moved over a
    time step (`p_world + v_world * DT`) by a velocity only, never by a normal, a direction or a force."""
    stored = moved = 0
    for seed in range(800):
        spec = generate("transform", seed)
        kind = _vector_taken_to_the_world(spec)
        if kind is None:
            continue
        out = re.search(r"^    (\w+)\[tid\] = (?:\w+ \* )?\(?v_world\)?$", spec.source, re.M)
        if out:
            stored += 1
            assert out.group(1) in transform.WORLD_VEC_NAMES[kind], spec.source
        if re.search(r"p_world \+ v_world \* ", spec.source):
            moved += 1
            assert kind in ("vel", "v_local"), spec.source
    assert stored >= 20 and moved >= 5


def test_a_position_is_replaced_never_added_to_or_blended():
    positions = ("x_world", "world_points", "world_pos", "local_points", "p_local")
    seen = 0
    for seed in range(800):
        spec = generate("transform", seed)
        for name in positions:
            if any(a.name == name and a.is_written for a in spec.args):
                seen += 1
                assert not re.search(rf"{name}\[tid\] (\+=|= .*{name}\[tid\])|wp\.lerp\({name}\[", spec.source), spec.source
    assert seen >= 50


def test_an_inverse_transform_takes_world_points_into_the_frame():
    """`wp.transform_point(X_inv, p)` reads a world point (never `x_local`); the local point a later body
    moves out through the frame is an input of its own, not the one just taken in (which would come
    back unchanged)."""
    inverse = 0
    for seed in range(800):
        spec = generate("transform", seed)
        m = re.search(r"wp\.transform_point\(X_inv, (\w+)\)", spec.source)
        if m is None:
            continue
        inverse += 1
        array = re.search(rf"^    {m.group(1)} = (\w+)\[tid\]$", spec.source, re.M).group(1)
        assert array.removesuffix("_in") in transform.WORLD_POINT_NAMES, spec.source
        assert not re.search(rf"wp\.transform_point\(X_child, {m.group(1)}\)", spec.source), spec.source
    assert inverse >= 10


def test_a_world_point_is_damped_by_a_velocity_in_the_world_frame():
    """A spring-damper on points moved to world space damps with their world velocity (the one an
    earlier body took to the world, or a velocity given as it is), never with a body-frame `v_local`."""
    damped = 0
    for seed in range(800):
        source = generate("transform", seed).source
        m = re.search(r" - (?:damping|kd) \* (\w+)", source)
        if not m or not re.search(r"^\s+d = p_world - ", source, re.M):
            continue
        damped += 1
        load = re.search(rf"^\s+{m.group(1)} = (\w+)\[", source, re.M)
        array = load.group(1) if load else m.group(1)
        assert array in ("v_world", "vel"), source
    assert damped >= 15


def test_a_falloff_never_takes_the_square_root_of_a_squared_length():
    """`wp.sqrt(wp.length_sq(d))` is `wp.length(d)`; the squared distance is compared with the squared
    radius instead, which is why people take it."""
    squared = 0
    for seed in range(400):
        source = generate("transform", seed).source
        assert "wp.sqrt(wp.length_sq(" not in source
        squared += bool(re.search(r"wp\.smoothstep\(0\.0, (\w+) \* \1, dist_sq\)", source))
    assert squared >= 10


def test_a_composed_frame_in_parts_stores_its_origin_or_an_axis_never_its_origin_rotated():
    """The child's world pose in parts: its origin (`t`), or one of its axes in the world
    (`wp.quat_rotate(rq, unit axis)`, stored as it is: a blend of unit axes is none), beside its
    orientation; `wp.quat_rotate(rq, t)`, the frame's rotation applied to its own origin, is no quantity."""
    axes = origins = 0
    for seed in range(1500):
        source = generate("transform", seed).source
        if "q_out[tid] = rq" not in source:
            continue
        assert not re.search(r"quat_rotate\(rq, t\)", source), source
        axes += bool(re.search(r"^\s+\w+\[tid\] = wp\.quat_rotate\(rq, wp\.vec3\((?:[01]\.0, ){2}[01]\.0\)\)$",
                               source, re.M))
        origins += bool(re.search(r"^\s+t = wp\.transform_get_translation\(X_child\)$", source, re.M))
    assert axes >= 10 and origins >= 10


def test_an_orientation_steps_in_the_world_frame_the_body_frame_or_exactly():
    """Session 57: a world-frame angular velocity multiplies the orientation on the left (`quat(w, 0) * q`),
    a body-frame one on the right (`q * quat(w, 0)`), and the exact step rotates by |w| dt about w's axis
    (`quat_from_axis_angle(normalize(w), length(w) * dt) * q`); each is drawn."""
    import re

    from synthesis.categories import generate

    V = r"\w+(?:\[\w+(?:, \w+)*\])?"  # a local, or an element read in place
    seen = {"world": 0, "body": 0, "exact": 0}
    for seed in range(400):
        spec = generate("transform", seed)
        if "orientation integration" not in spec.description:
            continue
        src = spec.source
        if "(exponential map)" in spec.description:
            m = re.search(rf"(\w+) = wp\.length\(({V})\) \* (\w+)\n\s+(\w+) = wp\.quat_from_axis_angle\(wp\.normalize\(\2\), \1\)\n"
                          r"\s+[^\n]+ = wp\.normalize\(\4 \* (\w+)\)", src)
            assert m, src
            seen["exact"] += 1
        elif "(body-frame angular velocity)" in spec.description:
            assert re.search(rf"dq\w* = (\w+) \* wp\.quat\({V}, 0\.0\)", src), src
            seen["body"] += 1
        else:
            assert re.search(rf"dq\w* = wp\.quat\({V}, 0\.0\) \* \w+", src), src
            seen["world"] += 1
    assert min(seen.values()) >= 5, seen


def test_a_vector_taken_to_the_world_is_named_for_its_kind():
    """`f_world = wp.transform_vector(X, f)` for a force, `n_world` for a normal: a force in the world named
    `v_world` (the velocity's name) was a tell of the generator (session 60)."""
    kinds = {"vel": "v", "v_local": "v", "dirs": "d", "forces": "f", "normals": "n"}
    seen = set()
    for seed in range(600):
        source = generate("transform", seed).source
        for local, vector, indexed in re.findall(r"^\s+(\w+)_world = wp\.transform_vector\([^,]+, (\w+)(\[tid\])?\)",
                                                  source, re.M):
            array = vector if indexed else re.search(rf"^\s+{vector} = (\w+)\[tid\]", source, re.M).group(1)
            assert local == kinds[array], source
            seen.add(array)
    assert seen == set(kinds)


def test_an_angular_velocity_or_velocity_is_named_for_the_frame_it_is_given_in():
    """A vector rotated into the body (`quat_rotate_inv`) or multiplied on the left of an orientation is a
    world one, never `v_local` or `body_w`; one rotated out to the world, or multiplied on the right (a
    gyroscope's rate), is a body one, never `omega_world` (session 60)."""
    body, world = {"v_local", "w_body", "body_w", "omega_body"}, {"omega_world", "vel_world"}
    given = set()
    for seed in range(600):
        source = generate("transform", seed).source

        def array(local: str) -> str:
            return (re.search(rf"^\s+{local} = (\w+)\[tid\]", source, re.M) or [None, local])[1]
        for fn, vec in re.findall(r"= wp\.(quat_rotate(?:_inv)?)\(\w+, (\w+)(?:\[tid\])?\)", source):
            name = array(vec)
            assert name not in (body if fn == "quat_rotate_inv" else world), source
            given.add(name)
        for vec in re.findall(r"wp\.quat\((\w+), 0\.0\) \*", source):
            assert array(vec) not in body, source
        for vec in re.findall(r"\* wp\.quat\((\w+), 0\.0\)", source):
            assert array(vec) not in world, source
    assert body & given and world & given
