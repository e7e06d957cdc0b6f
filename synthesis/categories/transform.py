"""Rigid-body kinematics: quaternions, transforms, rotated inertia, by-value frames and gravity.

Like Warp's rigid-body and ray-marching examples: points and vectors moved by transforms gathered
through body indices or passed by value (`wp.transform`, `wp.quat`, `wp.vec3`, `wp.mat33`), frames
composed with `wp.mul` / `*`, orientations built with `quat_from_axis_angle`, `quat_rpy`,
integrated and renormalised, inertia rotated into the world frame and inverted, smooth falloffs.

Numerics: quaternions and transforms are polynomials of their bounded inputs; only exact values
are normalised (or ones of length close to 1); angles stay within a few radians; the inverted
matrices are diagonally dominant (eigenvalues >= 1/2), so the inverse is well conditioned.
"""
from __future__ import annotations

import math
import random
import re

import numpy as np

from synthesis.categories.rich import RichKernelWriter, grid_value
from synthesis.exprgen import Expr
from synthesis.naming import untaken

POINT_NAMES = ["points", "x_local", "verts", "offsets", "anchors"]
VEC_NAMES = ["vel", "v_local", "dirs", "forces", "normals"]
# A point an inverse transform takes into a body's frame is a world point
WORLD_POINT_NAMES = ["points", "x_world", "world_pos", "verts"]
# A vector taken to the world frame keeps its kind in its output's name (a normal stays a normal)
WORLD_VEC_NAMES = {"vel": ["vel_world", "world_vel", "v_out"], "v_local": ["vel_world", "world_vel", "v_out"],
                   "dirs": ["dir_world", "world_dirs", "dir_out"], "forces": ["force_world", "world_forces", "force_out"],
                   "normals": ["normal_world", "world_normals", "normals_out"]}
# The local holding such a vector in the world, by its kind
WORLD_VEC_LOCALS = {"vel": "v_world", "v_local": "v_world", "dirs": "d_world", "forces": "f_world", "normals": "n_world"}
# A rotated vector, local and output, by its kind: a rotated force is no `v_rot`
ROTATED_LOCALS = {"vel": "v_rot", "v_local": "v_rot", "dirs": "d_rot", "forces": "f_rot", "normals": "n_rot"}
ROTATED_NAMES = {"vel": ["v_out", "v_rotated", "rotated"], "v_local": ["v_out", "v_rotated", "rotated"],
                 "dirs": ["dir_out", "dir_rotated", "rotated"], "forces": ["force_out", "f_rotated", "rotated"],
                 "normals": ["normals_out", "n_rotated", "rotated"]}
FRAME_NAMES = ["body_q", "frames", "poses", "X_wb"]
ROT_NAMES = ["rot", "orient", "quats", "body_rot"]
# The local holding a vec3 input's element, by the input's name: `p = points[tid]`, `w = omega[tid]`.
LOCAL_NAMES = {
    "points": "p", "x_local": "x", "verts": "p", "offsets": "r", "anchors": "p", "x_world": "x", "world_pos": "p",
    "vel": "v", "v_local": "v", "dirs": "d", "forces": "f", "normals": "n",
    "omega": "w", "ang_vel": "w", "w_body": "w", "body_w": "w", "omega_world": "w", "omega_body": "w",
    "torque": "tau", "tau": "t", "tau_ext": "tau", "r_com": "r", "arm": "r",
    "v_com": "v_c", "lin_vel": "v", "body_v": "v",
}


# |quat_rotate(q, v)| per component <= |q|^2 |v| <= 4 * sqrt(3) * max|v_i| for q in [-1, 1]^4.
ROTATION_GAIN = 7.0


def grid_tuple(rng: random.Random, n: int, low: float, high: float) -> tuple[float, ...]:
    return tuple(grid_value(rng, low, high) for _ in range(n))


def unit_quat(rng: random.Random) -> tuple[float, ...]:
    """A unit quaternion whose components are float32 values (so every parser reads the same bits)."""
    while True:
        q = grid_tuple(rng, 4, -1.0, 1.0)
        n = math.sqrt(sum(c * c for c in q))
        if n >= 0.25:
            return tuple(float(np.float32(c / n)) for c in q)


class Rigid:
    def __init__(self, rng: random.Random, name: str, seed: int):
        self.rng = rng
        n = rng.choice([64, 100, 128, 256, 500])
        self.w = RichKernelWriter(rng, name, "transform", seed, (n,))
        self.vec_outputs = 0
        # What a body leaves for the next one (a kernel's bodies work on one thing: the points one
        # moves to world space are the points the next one tests against a plane): the frame, the
        # rotation and the world-space point drawn or computed so far.
        self.shared_frame: Expr | None = None
        self.shared_rotation: Expr | None = None
        self.shared_point: Expr | None = None
        self.point_in_world = False  # shared_point is a point an earlier body moved to world space
        self.world_velocity: Expr | None = None  # a velocity an earlier body took to world space
        self.shared_dt: Expr | None = None
        self.weights: str | None = None  # the per-element weight array, once one is drawn
        self.last_vec_kind = ""  # the name hint of the last vec3 input drawn (its kind: a velocity, a normal)
        self.last_vec_array = ""  # and its name
        # Where the kernel's frame puts points, where a by-value frame or parent fixes it (a plane
        # tested against moved points must pass near them, or no point ever touches it).
        self.frame_centre: tuple[float, ...] = (0.0, 0.0, 0.0)

    def local(self, name: str, value: str, dtype: str, mag: float, q: int | None = None) -> Expr:
        name = self.unique_local(name)
        self.w.emit(f"{name} = {value}")
        e = Expr(name, dtype, mag, q)
        self.w.scopes[-1][name] = e
        return e

    def unique_local(self, hint: str) -> str:
        return untaken(hint, {a.name for a in self.w.args} | {n for s in self.w.scopes for n in s}, "local")

    # ---- where frames and rotations come from ---------------------------------------------
    def frame(self, per_thread: bool = False) -> Expr:
        """A transform: gathered by body index, own element, by value, or built from parts.

        `per_thread` leaves out the by-value frame, for a result that would otherwise depend on
        by-value arguments only (every thread writing the same transform).
        """
        shared = self.shared_frame
        if shared is not None and not (per_thread and any(a.name == shared.src for a in self.w.args)):
            return shared
        self.shared_frame = self._new_frame(per_thread)
        return self.shared_frame

    def _new_frame(self, per_thread: bool) -> Expr:
        w, rng = self.w, self.rng
        how = rng.choice(["gather", "own", "build"] if per_thread else ["gather", "own", "value", "build"])
        if how == "value":
            p = grid_tuple(rng, 3, -2.0, 2.0)
            q = unit_quat(rng)
            self.frame_centre = p
            return w.add_value(rng.choice(["X_wb", "xform", "frame", "root"]), "transform", p + q)
        if how == "build":
            pos = w.add_array(rng.choice(["pos", "origins", "com"]), "vec3", "input", low=-2.0, high=2.0)
            rot = self.rotation()
            w.feature("wp.transform")
            return self.local("X", f"wp.transform({pos}[tid], {rot.src})", "transform", 2.0)
        if how == "gather":
            bodies = rng.choice([4, 8, 16])
            frames = w.add_array(rng.choice(FRAME_NAMES), "transform", "input", shape=(bodies,), low=-1.0, high=1.0)
            ids = w.add_array(rng.choice(["body_id", "shape_body", "owner"]), "int32", "index", index_high=bodies - 1)
            w.feature("gather through body index")
            if rng.random() < 0.5:
                return self.local("X", f"{frames}[{ids}[tid]]", "transform", 1.0)
            b = self.local("b", f"{ids}[tid]", "int32", float(bodies))
            return self.local("X", f"{frames}[{b.src}]", "transform", 1.0)
        frames = w.add_array(rng.choice(FRAME_NAMES), "transform", "input", low=-1.0, high=1.0)
        return self.local("X", f"{frames}[tid]", "transform", 1.0)

    def rotation(self) -> Expr:
        """A unit quaternion (or one of length close to 1), from one of Warp's constructors; the
        kernel's rotation where an earlier body drew or computed one."""
        if self.shared_rotation is None:
            self.shared_rotation = self._new_rotation()
        return self.shared_rotation

    def _new_rotation(self) -> Expr:
        w, rng = self.w, self.rng
        how = rng.choice(["array", "axis_angle", "rpy", "value"])
        if how == "array":
            rot = w.add_array(rng.choice(ROT_NAMES), "quat", "input", low=-1.0, high=1.0)
            w.feature("normalised quaternion array")
            return self.local("q", f"wp.normalize({rot}[tid])", "quat", 1.0)
        if how == "value":
            return w.add_value(rng.choice(["q_offset", "rot0", "orientation"]), "quat", unit_quat(rng))
        if how == "axis_angle":
            axis = w.add_value(rng.choice(["axis", "hinge_axis", "spin_axis"]), "vec3", grid_tuple(rng, 3, -1.0, 1.0))
            angle_src = self.angle()
            w.feature("quat_from_axis_angle")
            return self.local("q", f"wp.quat_from_axis_angle(wp.normalize({axis.src}), {angle_src})", "quat", 1.0)
        angles = w.add_array(rng.choice(["euler", "angles", "rpy"]), "vec3", "input", low=-3.0, high=3.0)
        a = self.local("e", f"{angles}[tid]", "vec3", 3.0, 10)
        w.feature("quat_rpy")
        if rng.random() < 0.5:
            return self.local("q", f"wp.quat_rpy({a.src}[0], {a.src}[1], {a.src}[2])", "quat", 1.0)
        return self.local("q", f"wp.quat_rpy({a.src}.x, {a.src}.y, {a.src}.z)", "quat", 1.0)

    def angle(self) -> str:
        w, rng = self.w, self.rng
        how = rng.choice(["rate", "degrees", "scalar"])
        if how == "degrees":
            deg = w.add_array(rng.choice(["deg", "angle_deg", "theta_deg"]), "float32", "input", low=-180.0, high=180.0,
                              grid_bits=2)
            w.feature("wp.radians")
            return f"wp.radians({deg}[tid])"
        if how == "rate":
            omega = w.add_array(rng.choice(["omega", "rate", "spin"]), "float32", "input", low=-4.0, high=4.0)
            dt = self.time_step(["DT", "TIME_STEP", "FRAME_DT"], grid_value(rng, 0.0625, 0.5))
            return f"{omega}[tid] * {dt.src}"
        theta = w.add_array(rng.choice(["theta", "angle", "phi"]), "float32", "input", low=-3.0, high=3.0)
        return f"{theta}[tid]"

    def vec_input(self, names: list[str], low: float = -1.0, high: float = 1.0, grid_bits: int = 10) -> Expr:
        """The thread's element of a new vec3 input, in a local named as a physicist would (LOCAL_NAMES)."""
        hint = self.rng.choice(names)
        self.last_vec_kind = hint
        arr = self.last_vec_array = self.w.add_array(hint, "vec3", "input", low=low, high=high, grid_bits=grid_bits)
        return self.local(LOCAL_NAMES[hint], f"{arr}[tid]", "vec3", max(abs(low), high), grid_bits)

    def rename_input(self, old: str, new: str) -> str:
        """Call the input `old`, which one line reads so far, `new` (a name that says its frame, once the
        kernel has decided the frame)."""
        if self.w.is_argument(new):
            return old
        line = next(n for n, text in enumerate(self.w.lines) if re.search(rf"\b{old}\[", text))
        return self.w.rename_array(old, new, line)

    def time_step(self, names: list[str], value: float) -> Expr:
        """The kernel's time step: one module constant, however many bodies step with it."""
        if self.shared_dt is None:
            self.shared_dt = self.w.add_constant(self.rng.choice(names), value)
        return self.shared_dt

    def point(self, low: float = -1.0, high: float = 1.0, grid_bits: int = 10) -> Expr:
        """The kernel's point: one an earlier body moved to world space, else a new input."""
        if self.shared_point is None:
            self.shared_point = self.vec_input(POINT_NAMES, low, high, grid_bits)
        return self.shared_point

    def store_vec(self, value: Expr, hint: list[str], point: bool = False, force: bool = False) -> None:
        """Store a vec3: a point (shifted, at times, by a frame origin passed by value) or a vector; a
        force is scaled, at times, by a per-element gain (a stiffness or activation per point), as
        a direction, a velocity or a momentum never is; under a name no other output has."""
        if value.type == "vec3" and self.rng.random() < 0.4 and (point or force):
            if point:
                origin = self.w.add_value(self.rng.choice(["origin", "offset", "shift"]), "vec3",
                                          grid_tuple(self.rng, 3, -1.0, 1.0))
                value = Expr(f"{value.operand()} + {origin.src}", "vec3", value.mag + 1.0, None, atom=False)
                self.w.feature("offset by a by-value origin")
            else:
                if self.weights is None:  # loaded once: later stores of the kernel reuse the local
                    weights = self.w.add_array(self.rng.choice(["weights", "gain", "scale"]), "float32",
                                               "input", low=0.0, high=2.0)
                    self.w.unused.remove(weights)
                    self.weights = self.local({"weights": "wt", "gain": "g", "scale": "s"}[weights],
                                              f"{weights}[tid]", "float32", 2.0).src
                value = Expr(f"{self.weights} * {value.operand()}", "vec3", value.mag * 2.0, None, atom=False)
                self.w.feature("weighted per element")
        taken = {a.name for a in self.w.args}
        out = self.w.add_array(self.rng.choice([h for h in hint if h not in taken] or hint), value.type, "output")
        self.w.store(out, value, state=point)  # a position is replaced, never added to or blended


# ---- the kernels' bodies ---------------------------------------------------------------------
def move_points(r: Rigid) -> None:
    X = r.frame()
    p = r.point()
    mag = ROTATION_GAIN * p.mag + max(X.mag, 2.0)
    world = r.local("p_world", f"wp.transform_point({X.src}, {p.src})", "vec3", mag)
    r.shared_point = world
    r.point_in_world = True
    r.w.feature("transform_point")
    if r.rng.random() < 0.5:
        v = r.vec_input(VEC_NAMES)
        kind = r.last_vec_kind
        # named for its kind, as the input's element is (`f = forces[tid]`): a force in the world is no `v_world`
        vw = r.local(WORLD_VEC_LOCALS[kind], f"wp.transform_vector({X.src}, {v.src})", "vec3", ROTATION_GAIN * v.mag)
        r.w.feature("transform_vector")
        if kind in ("vel", "v_local"):
            r.world_velocity = vw
        # only a velocity moves the point over a time step; a normal, a direction or a force is stored
        if r.rng.random() < 0.5 or kind not in ("vel", "v_local"):
            r.store_vec(vw, WORLD_VEC_NAMES[kind], force=kind == "forces")
        else:
            world = Expr(f"{world.src} + {vw.src} * {r.time_step(['DT'], grid_value(r.rng, 0.0625, 0.25)).src}",
                         "vec3", mag + vw.mag, None, atom=False)
    r.store_vec(world, ["x_world", "world_points", "world_pos"], point=True)


def compose(r: Rigid) -> None:
    X = r.frame(per_thread=True)  # the parent is by value
    parent = r.w.add_value(r.rng.choice(["X_parent", "root", "offset"]), "transform",
                           grid_tuple(r.rng, 3, -2.0, 2.0) + unit_quat(r.rng))
    spelled = r.rng.choice(["wp.mul({a}, {b})", "{a} * {b}"])
    Y = r.local("X_child", spelled.format(a=parent.src, b=X.src), "transform", 16.0)  # |q| <= 2, |p| <= 2 + 4 * 2
    r.w.feature("transform composition")
    how = r.rng.choice(["store", "inverse", "parts"])
    if how == "store":
        out = r.w.add_array(r.rng.choice(["body_q_out", "world_frames", "frames_out"]), "transform", "output")
        r.w.store(out, Y)
    elif how == "inverse":
        # world points of their own: a later body moves its local points out through the same frame
        p = r.vec_input(WORLD_POINT_NAMES)
        inv = r.local("X_inv", f"wp.transform_inverse({Y.src})", "transform", 64.0)
        r.w.feature("transform_inverse")
        r.store_vec(Expr(f"wp.transform_point({inv.src}, {p.src})", "vec3", 64.0, None), ["local_points", "p_local"],
                    point=True)
    else:
        # the child's world pose in parts: its origin, or one of its axes in the world (the frame's
        # rotation applied to a unit axis; its rotation applied to its own origin, stored before
        # session 52, is no quantity), and its orientation
        t = r.local("t", f"wp.transform_get_translation({Y.src})", "vec3", 16.0)
        q = r.local("rq", f"wp.transform_get_rotation({Y.src})", "quat", 4.0)
        if r.rng.random() < 0.5:
            r.store_vec(t, ["origin_world", "body_pos", "child_pos"], point=True)
        else:
            axis = r.rng.choice([(0, "x_axis"), (1, "up_world"), (2, "forward")])
            unit = ", ".join("1.0" if k == axis[0] else "0.0" for k in range(3))
            # a direction: stored as it is (a sum or a blend of unit axes is no unit axis)
            taken = {a.name for a in r.w.args}
            out = r.w.add_array(next((h for h in (axis[1], "axis_world") if h not in taken), axis[1]), "vec3", "output")
            r.w.store(out, Expr(f"wp.quat_rotate({q.src}, wp.vec3({unit}))", "vec3", 4.0, None), state=True)
            r.w.feature("a frame's axis in the world")
        qa = r.w.add_array("q_out", "quat", "output")
        r.w.store(qa, q)
    r.shared_frame = Y  # a later body works in the child frame
    r.frame_centre = tuple(r.w.arg(parent.src).value[:3])  # the child's origins scatter around the parent's


def rotate(r: Rigid) -> None:
    q = r.rotation()
    v = r.vec_input(VEC_NAMES)
    fn = r.rng.choice(["wp.quat_rotate", "wp.quat_rotate_inv"])
    kind = r.last_vec_kind
    if kind == "v_local" and fn == "wp.quat_rotate_inv":  # the inverse takes a world vector into the body
        r.rename_input(r.last_vec_array, "vel_world")
    out = r.local(ROTATED_LOCALS[kind], f"{fn}({q.src}, {v.src})", "vec3", ROTATION_GAIN * v.mag)
    r.w.feature(fn[3:])
    # a body velocity taken to the world frame, then gravity's pull over a step: only a velocity, and only
    # in the world frame where gravity is given (a normal or a force plus g * dt, or a body-frame vector
    # plus a world one, is no quantity)
    loaded = next((line.split("= ", 1)[1].split("[")[0] for line in r.w.lines
                   if line.strip().startswith(f"{v.src} = ")), "")
    if r.rng.random() < 0.5 and fn == "wp.quat_rotate" and loaded.rstrip("0123456789") in ("vel", "v_local"):
        g = r.w.add_value(r.rng.choice(["gravity", "g", "accel"]), "vec3", (0.0, grid_value(r.rng, -10.0, -1.0), 0.0)
                          if r.rng.random() < 0.5 else grid_tuple(r.rng, 3, -2.0, 2.0))
        dt = r.time_step(["DT", "STEP"], grid_value(r.rng, 0.0625, 0.25))
        out = Expr(f"{out.src} + {g.src} * {dt.src}", "vec3", out.mag + g.mag * dt.mag, None, atom=False)
    r.store_vec(out, ROTATED_NAMES[kind])


# How an orientation is stepped (session 57: one first-order step in the world frame was the category's most
# repeated kernel): from a stream of its own, so the world-frame kernels keep every draw
INTEGRATION_WEIGHTS = (0.5, 0.25, 0.25)


def integrate_orientation(r: Rigid) -> None:
    """q' = normalize(q + 0.5 dt * quat(w, 0) * q): stays close to unit length for small dt."""
    rot = r.w.add_array(r.rng.choice(ROT_NAMES), "quat", r.rng.choice(["input", "inout"]), low=-1.0, high=1.0)
    q = r.local("q", f"wp.normalize({rot}[tid])", "quat", 1.0)
    how = random.Random(r.w.seed ^ 0x0A7E).choices(("world", "body", "exact"), weights=INTEGRATION_WEIGHTS)[0]
    # the angular velocity's name says its frame: a gyroscope's body-frame rate multiplies on the right
    omega = r.vec_input(["omega_body", "w_body", "body_w"] if how == "body" else ["omega", "ang_vel", "omega_world"])
    dt = r.time_step(["DT", "SUBSTEP"], r.rng.choice([0.0625, 0.125]))
    if how == "exact":  # the rotation by |w| dt about w's axis, exactly (no renormalised first-order step)
        angle = r.local("angle", f"wp.length({omega.src}) * {dt.src}", "float32", 8.0)
        dq = r.local("dq", f"wp.quat_from_axis_angle(wp.normalize({omega.src}), {angle.src})", "quat", 1.0)
        q_new = r.local("q_new", f"wp.normalize({dq.src} * {q.src})", "quat", 1.0)
        r.w.feature("orientation integration (exponential map)")
    else:
        # a world-frame angular velocity multiplies on the left, a body-frame one (a gyroscope's) on the right
        product = f"wp.quat({omega.src}, 0.0) * {q.src}" if how == "world" else f"{q.src} * wp.quat({omega.src}, 0.0)"
        dq = r.local("dq", product, "quat", 4.0)
        spelled = r.rng.choice(["wp.normalize({q} + {dq} * (0.5 * {dt}))", "wp.normalize({q} + 0.5 * {dt} * {dq})"])
        q_new = r.local("q_new", spelled.format(q=q.src, dq=dq.src, dt=dt.src), "quat", 1.0)
        r.w.feature("orientation integration" + (" (body-frame angular velocity)" if how == "body" else ""))
    r.shared_rotation = q_new  # a later body rotates by the new orientation
    if r.w.arg(rot).role == "inout":
        r.w.store(rot, q_new)
    else:
        out = r.w.add_array(r.rng.choice(["q_out", "rot_new", "orient_out"]), "quat", "output")
        r.w.store(out, q_new)


def inertia(r: Rigid) -> None:
    """A rigid body's rotational dynamics where its inertia is constant, its own frame: the body inertia
    (principal moments per body, `wp.diag`, or one tensor by value with small products of inertia; at
    times an armature on its diagonal, as MuJoCo adds), and a world vector rotated in (quat_rotate_inv),
    put through it and rotated back: the angular acceleration a torque gives (I^-1 tau), with the
    gyroscopic term of Euler's equations (I^-1 (tau - w x I w)), the angular momentum (I w), the
    rotational kinetic energy (w . I w / 2), or the inertia itself in the world frame (R I R^T)."""
    rng, w = r.rng, r.w
    q = r.rotation()
    if rng.random() < 0.5:  # principal moments per body: a diagonal inertia (the principal frame)
        moments = r.w.add_array(rng.choice(["inertia_diag", "principal_moments", "I_diag"]), "vec3", "input",
                                low=1.0, high=2.0)
        I_body = r.local("I_body", f"wp.diag({moments}[tid])", "mat33", 2.0)
        w.feature("principal moments of inertia (wp.diag)")
    else:
        diag = [grid_value(rng, 1.0, 2.0) for _ in range(3)]
        vals = [diag[a] if a == b else 0.0 for a in range(3) for b in range(3)]
        for a, b in ((0, 1), (0, 2), (1, 2)):
            off = grid_value(rng, -0.125, 0.125, 4) if rng.random() < 0.5 else 0.0
            vals[3 * a + b] = vals[3 * b + a] = off
        I_body = r.w.add_value(rng.choice(["I_body", "inertia", "I_local"]), "mat33", tuple(vals))
        w.feature("body-frame inertia")
    if rng.random() < 0.3:  # an armature: rotor inertia added on the diagonal, as solvers do
        eps = w.add_constant(rng.choice(["ARMATURE", "ROTOR_INERTIA"]), grid_value(rng, 0.0625, 0.25))
        I_body = r.local("I_eff", f"{I_body.src} + wp.identity(n=3, dtype=float) * {eps.src}", "mat33", 2.25)
        w.feature("armature on the diagonal")
    form = rng.choice(["acceleration", "euler", "momentum", "energy", "world"])
    if form == "world":
        R = r.local("R", f"wp.quat_to_matrix({q.src})", "mat33", 4.0)
        out = w.add_array(rng.choice(["I_world", "inertia_world", "world_inertia"]), "mat33", "output")
        w.store(out, Expr(f"{R.src} @ {I_body.src} @ wp.transpose({R.src})", "mat33", 16.0 * 2.25 * 3.0, None))
        w.feature("inertia rotated into the world frame (R I R^T)")
        return
    # a world angular velocity, rotated into the body frame: never named as a body-frame one (`body_w`)
    omega = r.vec_input(["omega", "ang_vel", "omega_world"]) if form != "acceleration" else None
    w_b = r.local("w_b", f"wp.quat_rotate_inv({q.src}, {omega.src})", "vec3", ROTATION_GAIN) if omega else None
    if form in ("acceleration", "euler"):
        # a torque, never an impulse: I^-1 of an impulse is a change of angular velocity, no acceleration,
        # and an impulse less the gyroscopic torque mixes units
        torque = r.vec_input(["torque", "tau", "tau_ext"])
        tau_b = r.local("tau_b", f"wp.quat_rotate_inv({q.src}, {torque.src})", "vec3", ROTATION_GAIN)
        inv = r.local("I_inv", f"wp.inverse({I_body.src})", "mat33", 1.25)
        w.feature("wp.inverse")
        if form == "euler":  # Euler's equations: the gyroscopic torque w x (I w) taken off
            rhs = f"({tau_b.src} - wp.cross({w_b.src}, {I_body.src} * {w_b.src}))"
            mag = ROTATION_GAIN + ROTATION_GAIN * 2.25 * ROTATION_GAIN * 3.0
            w.feature("Euler's equations (gyroscopic term)")
        else:
            rhs, mag = tau_b.src, ROTATION_GAIN
        alpha = Expr(f"{inv.src} * {rhs}", "vec3", 1.25 * 3.0 * mag, None, atom=False)
        r.store_vec(Expr(f"wp.quat_rotate({q.src}, {alpha.src})", "vec3", ROTATION_GAIN * alpha.mag, None),
                    ["alpha", "ang_acc"])
    elif form == "momentum":
        L = Expr(f"{I_body.src} * {w_b.src}", "vec3", 2.25 * 3.0 * ROTATION_GAIN, None, atom=False)
        r.store_vec(Expr(f"wp.quat_rotate({q.src}, {L.src})", "vec3", ROTATION_GAIN * L.mag, None), ["L", "ang_mom"])
        w.feature("angular momentum")
    else:
        out = w.add_array(rng.choice(["kinetic_energy", "rot_energy", "ke"]), "float32", "output")
        w.store(out, Expr(f"0.5 * wp.dot({w_b.src}, {I_body.src} * {w_b.src})", "float32",
                          0.5 * 3.0 * ROTATION_GAIN * 2.25 * 3.0 * ROTATION_GAIN, None))
        w.feature("rotational kinetic energy")


def falloff(r: Rigid) -> None:
    """A force scaled by smoothstep of the distance to a by-value centre (or of the squared distance,
    against the squared radius: no square root), with length_sq and **."""
    p = r.point(-2.0, 2.0, grid_bits=8)  # a drawn point keeps |d|^2 exact: sqrt sees no rounding
    center = r.w.add_value(r.rng.choice(["center", "origin", "target"]), "vec3", grid_tuple(r.rng, 3, -1.0, 1.0))
    radius = r.w.add_constant(r.rng.choice(["RADIUS", "FALLOFF", "RANGE"]), grid_value(r.rng, 1.0, 3.0))
    d = r.local("d", f"{p.src} - {center.src}", "vec3", p.mag + 1.0, 10 if p.q is not None else None)
    if r.rng.random() < 0.5:  # the falloff over the squared distance: no square root taken
        dist = r.local("dist_sq", f"wp.length_sq({d.src})", "float32", 4.0 * d.mag * d.mag)
        reach = f"{radius.src} * {radius.src}"
    else:
        dist = r.local("dist", f"wp.length({d.src})", "float32", 2.0 * d.mag)
        reach = radius.src
    wgt = r.local("wgt", f"1.0 - wp.smoothstep(0.0, {reach}, {dist.src})", "float32", 1.0)
    r.w.feature("smoothstep falloff")
    strength = r.w.add_scalar(r.rng.choice(["strength", "k", "stiffness"]), "float32", grid_value(r.rng, 0.5, 4.0))
    expo = r.rng.choice(["{w} ** 2.0", "{w} * {w}", "{w}"]).format(w=wgt.src)
    f = Expr(f"{strength.src} * {expo} * {d.src}", "vec3", strength.mag * d.mag, None, atom=False)
    if r.rng.random() < 0.5:  # a spring-damper: the velocity damped against
        # in the points' frame: a world point's velocity taken to the world by an earlier body, or one
        # given as it is; a body-frame velocity against a world-frame force is no quantity
        if r.point_in_world and r.world_velocity is not None:
            vel = r.world_velocity
        else:
            vel = r.vec_input(["vel"] if r.point_in_world else VEC_NAMES[:2], -2.0, 2.0)
        damping = r.w.add_scalar(r.rng.choice(["damping", "kd"]), "float32", grid_value(r.rng, 0.125, 1.0))
        f = Expr(f"{f.src} - {damping.src} * {vel.src}", "vec3", f.mag + vel.mag * damping.mag, None, atom=False)
        r.w.feature("damped by the velocity")
    r.store_vec(f, ["force", "f_out"], force=True)


def plane_contact(r: Rigid) -> None:
    """Penetration of points below a plane (a, b, c, d) passed by value, through a vec4 helper."""
    w, rng = r.w, r.rng
    n = grid_tuple(rng, 3, -1.0, 1.0)
    while math.sqrt(sum(c * c for c in n)) < 0.5:  # a tilt, not a plane whose every point reads ~d
        n = grid_tuple(rng, 3, -1.0, 1.0)
    # through the points' middle, give or take: some points are below it, some above
    centre = r.frame_centre if r.shared_point is not None else (0.0, 0.0, 0.0)
    d = round(-sum(a * b for a, b in zip(n, centre)) * 16.0) / 16.0 + grid_value(rng, -0.5, 0.5)
    plane = w.add_value(rng.choice(["plane", "ground_plane", "halfspace"]), "vec4", n + (d,))
    name = f"{w.name}_{rng.choice(['plane_distance', 'signed_distance', 'plane_sdf'])}"
    body = rng.choice([
        "return wp.dot(wp.vec3(plane[0], plane[1], plane[2]), p) + plane[3]",
        "return plane[0] * p[0] + plane[1] * p[1] + plane[2] * p[2] + plane[3]",
        "normal = wp.vec3(plane.x, plane.y, plane.z)\n    return wp.dot(normal, p) + plane.w",
    ])
    w.add_helper(f"@wp.func\ndef {name}(plane: wp.vec4, p: wp.vec3) -> float:\n    {body}", name)
    p = r.point(-2.0, 2.0, grid_bits=8)
    depth = r.local("depth", f"wp.min({name}({plane.src}, {p.src}), 0.0)", "float32", 3.0 * p.mag + 2.0)
    k = w.add_constant(rng.choice(["CONTACT_KE", "STIFFNESS", "KE"]), grid_value(rng, 1.0, 8.0))
    normal = f"wp.vec3({plane.src}[0], {plane.src}[1], {plane.src}[2])"
    w.feature("plane contact (vec4 helper)")
    r.store_vec(Expr(f"-{k.src} * {depth.src} * {normal}", "vec3", k.mag * depth.mag, None, atom=False),
                ["contact_force", "f_contact"], force=True)


def point_velocity(r: Rigid) -> None:
    """Velocity of body points: v + w x r, with the cross product as a skew matrix (wp.mat33). The arm
    from the body's origin to a point an earlier body moved to world space, or an input."""
    w, rng = r.w, r.rng
    omega = r.vec_input(["omega", "ang_vel", "w_body"])
    spun = r.last_vec_array
    if r.shared_point is not None and r.shared_frame is not None:
        origin = f"wp.transform_get_translation({r.shared_frame.src})"
        arm = r.local("arm", f"{r.shared_point.src} - {origin}", "vec3", r.shared_point.mag + r.shared_frame.mag)
        w.feature("moment arm from the body origin")
    else:
        arm = r.vec_input(["r_com", "arm", "offsets"], -2.0, 2.0)
    if rng.random() < 0.3:  # the angular velocity held in body coordinates: into world ones first
        if r.shared_frame is not None:  # the body's own rotation, from the frame that placed its points
            q = r.local("q_body", f"wp.transform_get_rotation({r.shared_frame.src})", "quat", 1.0)
        else:
            q = r.rotation()
        omega = r.local("w_world", f"wp.quat_rotate({q.src}, {omega.src})", "vec3", ROTATION_GAIN * omega.mag)
        if spun != "w_body":  # held in body coordinates: its name says so
            r.rename_input(spun, "omega_body")
        w.feature("angular velocity from body to world coordinates")
    elif spun == "w_body":  # a world angular velocity, used as it is
        r.rename_input(spun, "omega_world")
    o = omega.src
    if rng.random() < 0.6:
        W = r.local("W", f"wp.mat33(0.0, -{o}[2], {o}[1], {o}[2], 0.0, -{o}[0], -{o}[1], {o}[0], 0.0)", "mat33", 1.0)
        w.feature("skew matrix (wp.mat33)")
        rel = Expr(f"{W.src} * {arm.src}", "vec3", 2.0 * arm.mag, None, atom=False)
    else:
        rel = Expr(f"wp.cross({o}, {arm.src})", "vec3", 2.0 * arm.mag, None)
    if rng.random() < 0.35:  # each body's own linear velocity, beside its angular one
        v_lin = r.vec_input(["v_com", "lin_vel", "body_v"], -2.0, 2.0)
    else:
        v_lin = w.add_value(rng.choice(["v_com", "lin_vel", "v0"]), "vec3", grid_tuple(rng, 3, -2.0, 2.0))
    r.store_vec(Expr(f"{v_lin.src} + {rel.src}", "vec3", rel.mag + 2.0, None, atom=False), ["v_point", "vel_out"])


BODIES = [move_points, compose, rotate, integrate_orientation, inertia, falloff, plane_contact, point_velocity]
# Bodies that work on one thing, in order: each later one takes what an earlier one left (the world
# points, the frame, the rotation; see Rigid.shared_*), as one kernel of a simulator's step does.
CHAINS = [
    (move_points, plane_contact),  # body points to world space, then their contact with the ground
    (move_points, falloff),  # ... then a force field's pull on them
    (move_points, point_velocity),  # ... then their velocity, v + w x (p - origin)
    (move_points, plane_contact, point_velocity),
    (compose, move_points),  # a child frame from its parent, then points through it
    (compose, move_points, plane_contact),
    (integrate_orientation, rotate),  # a new orientation, then a vector rotated by it
    (rotate, inertia),  # one orientation for a rotated vector and the torque's frame
    (falloff, plane_contact),  # two forces on the same points
]


def generate(rng: random.Random, name: str, seed: int):
    r = Rigid(rng, name, seed)
    bodies = (rng.choice(BODIES),) if rng.random() < 0.35 else rng.choice(CHAINS)
    for body in bodies:
        body(r)
    if rng.random() < 0.4:
        r.w.option("enable_backward", "False")
    return r.w.finish("Rigid-body transform kernel")
