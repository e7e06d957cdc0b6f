"""Particles held in `@wp.struct`s: integration, springs, neighbour sums, collisions.

Like Warp's particle, cloth and SPH examples: a state struct holds per-particle arrays (positions,
velocities, inverse masses), a parameter struct holds the step, gravity, damping and a frame
(scalar, vector and matrix fields); kernels read and write struct fields (`state.vel[tid] += ...`).
Or, as code written CUDA-style does, the particles are an array of records, a struct per particle
(`particles: wp.array(dtype=Particle)`): members read and written in place (`particles[i].vel`;
`particles[j].force += f` is atomic in Warp too), or the thread's record copied, updated and stored
back whole (`p = particles[tid]` ... `particles[tid] = p`). Either way kernels
gather neighbours through index arrays, scatter spring forces with `a[i] += f` / `wp.atomic_add`,
return early for pinned particles, and pass the parameter struct to `@wp.func` helpers.

Numerics: positions lie on a 1/64 grid, so distances squared are exact and `if r2 < h2` compares
exact values; scattered sums may round in any order, which the bound (all threads hitting one
slot) absorbs many times over.
"""
from __future__ import annotations

import random
import re
from synthesis.categories.rich import RichKernelWriter, StructField, grid_value, record_member, struct_array, struct_value
from synthesis.exprgen import Expr
from synthesis.naming import untaken

STATE_CLASSES = ["ParticleState", "Particles", "State", "Cloud"]
# per-particle fields: dtype and the range and grid of their inputs (positions on a 1/64 grid)
STATE_FIELDS = {"pos": ("vec3", -2.0, 2.0, 6), "vel": ("vec3", -1.0, 1.0, 10), "force": ("vec3", -1.0, 1.0, 10),
                "inv_mass": ("float32", 0.0, 2.0, 2), "mass": ("float32", 0.25, 2.0, 4),
                "density": ("float32", 0.0, 1.0, 10)}
PARAM_CLASSES = ["SimParams", "Params", "StepParams", "Config"]
RECORD_CLASSES = ["Particle", "Body", "ParticleData", "Point"]
RECORDS_SHARE = 0.4  # kernels holding their particles as an array of records rather than a struct of arrays
NAME = re.compile(r"\b[A-Za-z_]\w*\b")


class ParticleKernel:
    def __init__(self, rng: random.Random, name: str, seed: int):
        self.rng = rng
        self.n = rng.choice([64, 128, 256, 500])
        self.w = RichKernelWriter(rng, name, "particles", seed, (self.n,))
        self.state = rng.choice(["state", "particles", "pstate"])
        self.params = rng.choice(["params", "sim", "cfg"])
        self.state_roles: dict[str, str] = {}
        self.param_fields: dict[str, StructField] = {}
        self.param_class = rng.choice(PARAM_CLASSES)
        # The layout is drawn from a stream of its own, so a struct-of-arrays kernel draws what it did
        # before records existed (the same seed, the same kernel).
        self.records = random.Random(seed ^ 0x5EC0D5).random() < RECORDS_SHARE
        if self.records:
            self.state = rng.choice(["particles", "bodies", "points"])
            self.record_class = rng.choice(RECORD_CLASSES)
        self.copy: str | None = None  # the thread's record copied into a local: its members are read there
        self.stored_whole = False  # a record stored whole (`particles[tid] = p`): every member is written
        # the copy a record was stored from, and its members written since: later bodies read the rest
        # there (`p.mass`), not from the array it was just stored to (`particles[tid].mass`)
        self.held: str | None = None
        self.held_stale: set[str] = set()
        # the lines (indices into w.lines) where integration stored the thread's velocity and position:
        # a later body that steps the same velocity again (a ground contact) makes the first store dead
        # and reads the new position, which it then takes from a local (`x_new`), as a person writes it
        self.stores: dict = {}
        self.modulated: set[str] = set()  # quantities a per-particle factor already scales: never two drags
        self.loaded: dict[str, Expr] = {}  # the thread's own members held in locals, until a body writes them

    def at(self, key: str, index: str = "tid") -> str:
        """A particle's member: `state.key[index]` (a struct of arrays), `particles[index].key` (records),
        or the local copy's `p.key` for the thread's own record while one is held."""
        if not self.records:
            return f"{self.state}.{key}[{index}]"
        if self.copy is not None and index == "tid":
            return f"{self.copy}.{key}"
        return f"{self.state}[{index}].{key}"

    def read(self, key: str) -> str:
        """The thread's own member `key` where a body reads it: `at(key)`, or the member of the copy the
        record was stored from (`p.mass` after `particles[tid] = p`) while no body has written it since."""
        if self.copy is None and self.held is not None and key not in self.held_stale:
            return f"{self.held}.{key}"
        return self.at(key)

    def own(self, key: str, name: str, dtype: str, mag: float, q: int | None = None) -> Expr:
        """The thread's own member `key`, loaded into a local once (`xi = state.pos[tid]`) and read there
        by every later body, until one writes the member (`written`)."""
        if key not in self.loaded:
            self.loaded[key] = self.local(name, self.read(key), dtype, mag, q)
        return self.loaded[key]

    def written(self, *keys: str, value: Expr | None = None) -> None:
        """The thread's own members `keys` were written: later bodies read them afresh; or, where the
        one member was written with a local of the kernel's body (`value`), they read that local: a
        person keeps the velocity they stored, where the bodies loaded it back (`state.vel[tid] = v_new`,
        then `vi = state.vel[tid]` for the kinetic energy: 38% of particle kernels in session 59)."""
        for key in keys:
            self.loaded.pop(key, None)
        self.held_stale.update(keys)
        if value is not None and len(keys) == 1 and len(self.w.scopes) == 1:
            self.loaded[keys[0]] = value

    def local(self, name: str, value: str, dtype: str, mag: float, q: int | None = None) -> Expr:
        taken = {a.name for a in self.w.args} | {n for scope in self.w.scopes for n in scope}
        if name in taken and self.w.scopes[0].get(name, Expr("", dtype, 0)).type != dtype:
            name = untaken(name, taken, "local")
        self.w.emit(f"{name} = {value}")
        e = Expr(name, dtype, mag, q)
        self.w.scopes[-1][name] = e
        return e

    def make_state(self, roles: dict[str, str], pos_bits: int = 6) -> str:
        """Ask for per-particle fields (pos/vel/force/inv_mass/density) used as `roles` say."""
        for key, role in roles.items():
            old = self.state_roles.get(key)
            if old is None or old == role:
                self.state_roles[key] = role
            else:  # read by one body, written by another
                self.state_roles[key] = "inout"
        for key in roles:
            dtype, lo, hi, bits = STATE_FIELDS[key]
            # readable (and loadable) now; the struct itself is declared once all bodies are written
            self.w.field_specs[f"{self.state}.{key}"] = struct_array(key, dtype, self.state_roles[key], (self.n,),
                                                                   lo, hi, bits).spec
        return self.state

    def make_params(self, keys: list[str]) -> str:
        rng = self.rng
        for key in keys:
            if key in self.param_fields:
                continue
            dtype, value = {
                "dt": ("float32", lambda: grid_value(rng, 0.0625, 0.25)),
                "gravity": ("vec3", lambda: (0.0, grid_value(rng, -10.0, -1.0), 0.0) if rng.random() < 0.6 else
                            tuple(grid_value(rng, -2.0, 2.0) for _ in range(3))),
                "damping": ("float32", lambda: grid_value(rng, 0.5, 0.9375)),
                "spring_damping": ("float32", lambda: grid_value(rng, 0.0625, 0.5)),
                "stiffness": ("float32", lambda: grid_value(rng, 0.5, 4.0)),
                "rest_length": ("float32", lambda: grid_value(rng, 0.25, 1.0)),
                "radius": ("float32", lambda: grid_value(rng, 1.0, 2.0)),
                "ground": ("float32", lambda: grid_value(rng, -1.5, -0.25)),
                "restitution": ("float32", lambda: grid_value(rng, 0.25, 0.75)),
                "frame": ("mat33", self.rotation_like),
                "jitter": ("float32", lambda: grid_value(rng, 0.0625, 0.25)),
                "seed": ("int32", lambda: rng.randint(1, 1 << 20)),
                # an obstacle holding a fair share of the particles (positions in [-2, 2]^3): 7-50%
                "center": ("vec3", lambda: tuple(grid_value(rng, -0.5, 0.5) for _ in range(3))),
                "sphere_radius": ("float32", lambda: grid_value(rng, 1.0, 2.0)),
            }[key]
            self.param_fields[key] = struct_value(key, dtype, value())
            if dtype == "float32":  # expressions may read the scalar parameters
                self.w.scopes[0][f"{self.params}.{key}"] = self.p(key)
        return self.params

    def declare_structs(self) -> None:
        """Create the two struct classes from the fields the bodies asked for; struct parameters first."""
        w = self.w
        fields = []
        for key in STATE_FIELDS:
            if key in self.state_roles:
                dtype, lo, hi, bits = STATE_FIELDS[key]
                fields.append(struct_array(key, dtype, self.state_roles[key], (self.n,), lo, hi, bits))
        before = len(w.args)
        if self.records:
            # a record stored whole writes back the members the kernel only reads, as they were read
            written_back = "inout" if self.stored_whole else "input"
            fields = [record_member(f.name, f.spec.dtype, written_back if f.spec.role == "input" else f.spec.role,
                                    f.spec.shape, f.spec.low, f.spec.high, f.spec.grid_bits) for f in fields]
            w.add_records(self.record_class, self.state, fields, (self.n,))
        else:
            w.add_struct(self.rng.choice(STATE_CLASSES), self.state, fields)
        if self.param_fields:
            w.add_struct(self.param_class, self.params, list(self.param_fields.values()))
        moved = len(w.args) - before
        w.args[:] = w.args[before:] + w.args[:before]
        w.annotations[:] = w.annotations[before:] + w.annotations[:before]
        assert moved in (1, 2)

    def rotation_like(self) -> tuple[float, ...]:
        """A matrix with small entries around a signed permutation (bounded, well scaled)."""
        rng = self.rng
        perm = rng.sample(range(3), 3)
        vals = [0.0] * 9
        for r, c in enumerate(perm):
            vals[3 * r + c] = rng.choice([-1.0, 1.0])
        for k in range(9):
            if vals[k] == 0.0 and rng.random() < 0.3:
                vals[k] = grid_value(rng, -0.25, 0.25)
        return tuple(vals)

    def p(self, key: str) -> Expr:
        spec = self.param_fields[key].spec
        if isinstance(spec.value, tuple):
            return Expr(f"{self.params}.{key}", spec.dtype, max(abs(v) for v in spec.value), 4)
        return Expr(f"{self.params}.{key}", spec.dtype, float(abs(spec.value)), 0 if spec.dtype == "int32" else 4)


# A per-particle factor on top of a result, as its name says it acts on that quantity: (name, range, how
# it applies). A velocity is damped by drag or slowed with age (particle effects); a spring's force is
# weakened by damage or scaled by its material's stiffness. A density or a kinetic energy takes none: a
# drag, a charge or a temperature scaling them (session 47 and before) is no physics.
MODULATIONS = {
    "velocity": (("drag", (0.0, 0.5), "{v} * (1.0 - {f})"),
                 ("age", (0.0, 2.0), "{v} * wp.exp(-{f})")),
    "force": (("damage", (0.0, 1.0), "{v} * (1.0 - {f})"),
              ("stiffness_scale", (0.5, 1.5), "{f} * {v}")),
}


def modulate(k: ParticleKernel, value: Expr, quantity: str) -> Expr:
    """Often, a per-particle factor on top of a `quantity` ("velocity", "force"), applied as its name
    says (MODULATIONS): a drag damps, an age fades exponentially, a damage weakens."""
    rng, w = k.rng, k.w
    if rng.random() < 0.45 or quantity not in MODULATIONS or quantity in k.modulated:
        return value
    k.modulated.add(quantity)
    name, (low, high), shape = rng.choice(MODULATIONS[quantity])
    factor = w.load(w.add_array(name, "float32", "input", low=low, high=high))
    w.feature(f"per-particle {name.replace('_', ' ')}")
    text = shape.format(v=value.operand(), f=factor.src)
    return Expr(text, value.type, value.mag * max(abs(low), abs(high), 1.5), None, atom=False)


# ---- kernel bodies -----------------------------------------------------------------------------
def integrate(k: ParticleKernel) -> None:
    """Semi-implicit Euler with pinned particles (inv_mass == 0 returns early)."""
    rng, w = k.rng, k.w
    external = rng.random() < 0.5
    k.make_state({"pos": "inout", "vel": "inout", "inv_mass": "input"})
    keys = ["dt", "gravity", "damping"] + (["frame"] if rng.random() < 0.4 else [])
    k.make_params(keys)
    forces = w.add_array(rng.choice(["forces", "f_ext", "external"]), "vec3", "input") if external else None
    s = k.state
    if k.records and rng.random() < 0.5:  # the thread's record copied, updated and stored back whole
        taken = {a.name for a in w.args} | {n for scope in w.scopes for n in scope}
        k.copy = next(c for c in ("p", "rec", "particle", "body") if c not in taken)
        w.emit(f"{k.copy} = {k.state}[tid]")
        w.scopes[-1][k.copy] = Expr(k.copy, "struct", 0.0)
        w.feature("record copied, updated and stored back")
        inv_m = Expr(k.at("inv_mass"), "float32", 2.0, 2)
    else:
        inv_m = k.local("w", k.at("inv_mass"), "float32", 2.0, 2)
    if rng.random() < 0.6:
        with w.block(f"if {inv_m.src} == 0.0:"):
            w.emit("return")
        w.loads_follow()  # the elements a moving particle reads are loaded after the test, not before
        w.feature("early return for pinned particles")
    # the update of a copied record, often a helper taking and returning the record by value
    # (`p = advance(p, params)`): one reading only the record and the parameters
    helper = k.copy is not None and not external and rng.random() < 0.5
    start = len(w.lines)
    g = k.p("gravity")
    if "frame" in keys:
        g = Expr(f"{k.params}.frame * {g.src}", "vec3", 1.5 * g.mag * 3, None, atom=False)
        w.feature("matrix field")
    accel = f"{forces}[tid] * {inv_m.src} + {g.operand()}" if external else g.src
    acc_mag = (2.0 if external else 0.0) + g.mag
    dt = k.p("dt")
    v = k.local("v", f"{k.at('vel')} + ({accel}) * {dt.src}", "vec3", 1.0 + acc_mag * dt.mag, None)
    style = rng.choice(["aug", "mul"])
    if style == "aug":
        w.emit(f"{v.src} *= {k.params}.damping")
    else:
        v = k.local("v_damped", f"{v.src} * {k.params}.damping", "vec3", v.mag, None)
    v_new = v if helper else modulate(k, v, "velocity")
    if v_new is not v:
        v = k.local("v_new", v_new.src, "vec3", v_new.mag, None)
    w.emit(f"{k.at('vel')} = {v.src}")
    vel_line = len(w.lines) - 1
    w.note_bound(f"{s}.vel", v.mag)
    if rng.random() < 0.5:
        w.emit(f"{k.at('pos')} += {v.src} * {dt.src}")
    else:
        w.emit(f"{k.at('pos')} = {k.at('pos')} + {v.src} * {dt.src}")
    if not helper and k.copy is None and w.indent == 1:  # stores of the kernel's body, one member each
        k.stores = {"vel": vel_line, "pos": len(w.lines) - 1, "dt": dt.src, "v": v.src, "x_mag": 2.0 + v.mag * dt.mag}
    w.note_bound(f"{s}.pos", 2.0 + v.mag * dt.mag)
    if helper:
        record_helper(k, start)
    held = None
    if k.copy is not None:
        w.emit(f"{s}[tid] = {k.copy}")
        record_line = len(w.lines) - 1
        held, k.copy, k.stored_whole = k.copy, None, True
    k.written("pos")
    k.written("vel", value=None if helper else v)  # a helper's v is its own
    if held is not None and len(w.scopes) == 1:  # the copy holds every member as stored
        k.held, k.held_stale = held, set()
        k.stores = {"record": record_line, **({} if helper else {"vel": vel_line})}
    w.feature("integration")


def record_helper(k: ParticleKernel, start: int) -> None:
    """The record update the kernel wrote from line `start` on, moved into a `@wp.func` that takes the
    record and the parameter struct by value and returns the record (Warp passes both by value: the
    helper updates its own copy); the kernel calls it in their place."""
    rng, w = k.rng, k.w
    body = w.lines[start:]
    del w.lines[start:]
    indent = len(body[0]) - len(body[0].lstrip())
    name = f"{w.name}_{rng.choice(['advance', 'step_record', 'integrate_record'])}"
    prm = "prm" if k.copy != "prm" else "params_in"
    lines = [f"@wp.func\ndef {name}({k.copy}: {k.record_class}, {prm}: {k.param_class}) -> {k.record_class}:"]
    lines += ["    " + re.sub(rf"\b{re.escape(k.params)}\.", f"{prm}.", line[indent:]) for line in body]
    lines.append(f"    return {k.copy}")
    w.add_helper("\n".join(lines), name)
    w.emit(f"{k.copy} = {name}({k.copy}, {k.params})")
    w.feature("helper taking and returning a record")


def springs(k: ParticleKernel) -> None:
    """One thread per spring: endpoints gathered by index, equal and opposite forces scattered."""
    rng, w = k.rng, k.w
    damped = rng.random() < 0.4  # a spring-damper: the relative velocity along the spring resists too
    k.make_state({"pos": "input", "force": "inout", **({"vel": "input"} if damped else {})})
    k.make_params(["stiffness", "rest_length"] + (["spring_damping"] if damped else []))
    s = k.state
    ids = w.add_array(rng.choice(["springs", "edges", "spring_indices"]), "int32", "index", shape=(2 * k.n,),
                      index_high=k.n - 1)
    i = k.local("i", f"{ids}[tid * 2]", "int32", float(k.n))
    j = k.local("j", f"{ids}[tid * 2 + 1]", "int32", float(k.n))
    d = k.local("d", f"{k.at('pos', j.src)} - {k.at('pos', i.src)}", "vec3", 4.0, 6)
    length = k.local("l", f"wp.length({d.src})", "float32", 7.0)
    stretch = f"{length.src} - {k.params}.rest_length"
    mag = k.p("stiffness").mag * 8.0
    if damped:
        used = set(NAME.findall("\n".join(w.lines)))  # a loop of another body may hold `n` (an int)
        n = k.local(next(c for c in ("n", "axis", "dir_ij") if c not in used), f"wp.normalize({d.src})", "vec3", 1.0, None)
        dv = k.local(next(c for c in ("dv", "rel_vel", "v_rel") if c not in used),
                     f"{k.at('vel', j.src)} - {k.at('vel', i.src)}", "vec3", 2.0, None)
        mag += k.p("spring_damping").mag * 2.0 * 1.8
        fs = k.local("fs", f"{k.params}.stiffness * ({stretch}) + {k.params}.spring_damping * wp.dot({dv.src}, {n.src})",
                     "float32", mag)
        f = k.local("f", f"{n.src} * {fs.src}", "vec3", mag)
        w.feature("spring-damper (relative velocity along the spring)")
    else:
        fs = k.local("fs", f"{k.params}.stiffness * ({stretch})", "float32", mag)
        f = k.local("f", f"wp.normalize({d.src}) * {fs.src}", "vec3", mag)
    f_mod = modulate(k, f, "force")
    if f_mod is not f:
        f = k.local("f_total", f_mod.src, "vec3", f_mod.mag, None)
        mag = f.mag
    spelled = rng.choice(["aug", "atomic"])
    if spelled == "aug" or k.records:  # a record's member has no wp.atomic_add spelling: `+=` is atomic
        w.emit(f"{k.at('force', i.src)} += {f.src}")
        w.emit(f"{k.at('force', j.src)} -= {f.src}")
    else:
        w.emit(f"wp.atomic_add({s}.force, {i.src}, {f.src})")
        w.emit(f"wp.atomic_sub({s}.force, {j.src}, {f.src})")
    w.note_bound(f"{s}.force", 1.0 + 2 * k.n * mag)
    w.feature("spring forces scattered")


def density(k: ParticleKernel) -> None:
    """SPH-style density: a fixed number of neighbours per particle, poly6 weight inside a radius."""
    rng, w = k.rng, k.w
    k.make_state({"pos": "input", "density": "output"})
    k.make_params(["radius"])
    s = k.state
    count = rng.choice([4, 6, 8])
    nb = w.add_constant(rng.choice(["NUM_NEIGHBORS", "MAX_NEIGHBORS", "K"]), count)
    ids = w.add_array(rng.choice(["neighbors", "nbrs", "adjacency"]), "int32", "index", shape=(count * k.n,),
                      index_high=k.n - 1)
    xi = k.own("pos", "xi", "vec3", 2.0, 6)
    h = k.p("radius")
    h2 = k.local("h2", f"{h.src} * {h.src}", "float32", h.mag * h.mag, 8)
    rho = w.declare("rho", Expr("0.0", "float32", 0.0, 0), count * h2.mag ** 3, None)
    # the loop's index: `n` unless an earlier body took it (a spring's normal is `n`, a vec3)
    taken = {a.name for a in w.args} | {name for scope in w.scopes for name in scope}
    slot = next(c for c in ("n", "m", "slot") if c not in taken)
    with w.block(f"for {slot} in range({nb.src}):"):
        k.local("j", f"{ids}[tid * {nb.src} + {slot}]", "int32", float(k.n))
        k.local("r2", f"wp.length_sq({xi.src} - {k.at('pos', 'j')})", "float32", 48.0, 12)
        with w.block("if r2 < h2:"):
            if rng.random() < 0.5:
                w.emit("rho += (h2 - r2) ** 3.0")
            else:
                w.emit("diff = h2 - r2")
                w.emit("rho += diff * diff * diff")
    out = modulate(k, Expr("rho", "float32", count * h2.mag ** 3, None), "density")
    w.emit(f"{k.at('density')} = {out.src}")
    w.note_bound(f"{s}.density", out.mag + 1.0)
    w.feature("neighbour density")


def collide(k: ParticleKernel) -> None:
    """Ground collision through a helper taking the parameter struct: reflect and damp."""
    rng, w = k.rng, k.w
    k.make_state({"pos": "input", "vel": "inout"})
    k.make_params(["ground", "restitution"] + (["dt"] if rng.random() < 0.5 else []))
    s, cls = k.state, k.param_class
    name = f"{w.name}_{rng.choice(['collide', 'bounce', 'ground_contact'])}"
    lines = [f"@wp.func\ndef {name}(prm: {cls}, x: wp.vec3, v: wp.vec3) -> wp.vec3:"]
    lines.append("    if x[1] < prm.ground and v[1] < 0.0:")
    if rng.random() < 0.5:
        lines.append("        return wp.vec3(v[0], -v[1] * prm.restitution, v[2])")
    else:  # the parameter is the function's own copy: its component is reflected in place
        lines.append("        v[1] = -v[1] * prm.restitution")
        if "dt" in k.param_fields:  # left here, before the push-out below; else the function's one return
            lines.append("        return v")
        w.feature("vertical component reflected in place")
    if "dt" in k.param_fields:
        # a particle still below the ground but not falling leaves it within one step (a velocity-level
        # push-out, as position-based solvers recover penetration); before session 48 every particle
        # had (ground - y) * dt added, a pull toward the ground no solver applies
        lines.append("    if x[1] < prm.ground:")
        lines.append("        return wp.vec3(v[0], wp.max(v[1], (prm.ground - x[1]) / prm.dt), v[2])")
        w.feature("penetration recovered within a step")
    lines.append("    return v")
    w.add_helper("\n".join(lines), name)
    w.feature("helper taking a struct")
    if "pos" in k.stores and "pos" not in k.loaded:
        stepped_position(k)
    x_src, v_src = (k.loaded[key].src if key in k.loaded else k.read(key) for key in ("pos", "vel"))
    # |v| <= 1 in, (ground - y) / dt <= (2 - 0.25) / 0.0625 = 28 out of the ground
    v = k.local("v", f"{name}({k.params}, {x_src}, {v_src})", "vec3", 32.0 if "dt" in k.param_fields else 4.0, None)
    v_mod = modulate(k, v, "velocity")
    if v_mod is not v:
        v = k.local("v_out", v_mod.src, "vec3", v_mod.mag, None)
    # the integration's store of the velocity this step replaces is dead; a record is stored once,
    # after the contact, its copy taking the velocity
    for line in sorted((k.stores[key] for key in ("vel", "record") if key in k.stores), reverse=True):
        del w.lines[line]
    if "record" in k.stores:
        w.emit(f"{k.held}.vel = {v.src}")
        w.emit(f"{s}[tid] = {k.held}")
    else:
        w.emit(f"{k.at('vel')} = {v.src}")
    k.stores = {}
    k.written("vel", value=v)
    w.note_bound(f"{s}.vel", v.mag)


def stepped_position(k: ParticleKernel) -> None:
    """The integration's position update rewritten through a local (`x_new = state.pos[tid] + v * dt`,
    then `state.pos[tid] = x_new`), so that a later body reads the local, not the element just stored."""
    w, line = k.w, k.stores["pos"]
    taken = {a.name for a in w.args} | {n for scope in w.scopes for n in scope}
    name = untaken("x_new", taken, "local")
    indent = w.lines[line][:len(w.lines[line]) - len(w.lines[line].lstrip())]
    w.lines[line:line + 1] = [f"{indent}{name} = {k.at('pos')} + {k.stores['v']} * {k.stores['dt']}",
                              f"{indent}{k.at('pos')} = {name}"]
    x = Expr(name, "vec3", k.stores["x_mag"], None)
    w.scopes[0][name] = x
    k.loaded["pos"] = x


def kinetic_energy(k: ParticleKernel) -> None:
    """Kinetic energy summed per group (object) through an index array: `energy[g] += ke` or atomic_add."""
    rng, w = k.rng, k.w
    k.make_state({"vel": "input", "mass": "input"})
    s = k.state
    groups = rng.choice([4, 8, 16])
    energy = w.add_array(rng.choice(["energy", "total_ke", "ke_sum"]), "float32", "output", shape=(groups,))
    owner = w.add_array(rng.choice(["group", "body_id", "owner"]), "int32", "index", index_high=groups - 1)
    v = k.own("vel", "vi", "vec3", 1.0, 10)
    if rng.random() < 0.5:
        ke = k.local("ke", f"0.5 * {k.read('mass')} * wp.dot({v.src}, {v.src})", "float32", 3.0, None)
    else:
        ke = k.local("ke", f"0.5 * {k.read('mass')} * wp.length_sq({v.src})", "float32", 3.0, None)
    ke = modulate(k, ke, "energy")
    g = k.local("g", f"{owner}[tid]", "int32", float(groups))
    if rng.random() < 0.5:
        w.emit(f"{energy}[{g.src}] += {ke.src}")
    else:
        w.emit(f"wp.atomic_add({energy}, {g.src}, {ke.src})")
    w.note_bound(energy, k.n * ke.mag + 1.0)
    w.feature("energy reduction")


def jitter(k: ParticleKernel) -> None:
    """Seeded jitter, as Warp's SPH example places its particles: one random stream per particle
    (`wp.rand_init(seed, tid)`), Gaussian (`wp.randn`) or uniform (`wp.randf`) offsets scaled by a
    parameter. The seed is an argument: the stream, not a constant, decides the offsets."""
    rng, w = k.rng, k.w
    k.make_state({"pos": "inout"})
    in_params = rng.random() < 0.5  # the step's seed kept with the other parameters (an int field)
    k.make_params(["jitter"] + (["seed"] if in_params else []))
    s = k.state
    if in_params:
        seed = k.p("seed")
        w.feature("int struct field (the seed)")
    else:
        seed = w.add_scalar(rng.choice(["seed", "rng_seed", "step_seed"]), "int32", rng.randint(1, 1 << 20))
    state = k.local(rng.choice(["rng", "rng_state", "rand_state"]), f"wp.rand_init({seed.src}, tid)", "uint32", 0.0)
    form = rng.choice(["randn", "randn", "randf_range", "randf_centered"])
    if form == "randn":
        draw_src, draw_mag = f"wp.randn({state.src})", 6.0  # |randn| < 5.8: its uniform is at least 5.96e-8
    elif form == "randf_range":
        draw_src, draw_mag = f"wp.randf({state.src}, -1.0, 1.0)", 1.0
    else:
        draw_src, draw_mag = f"(wp.randf({state.src}) - 0.5)", 0.5
    offset = k.local(rng.choice(["offset", "delta", "noise"]), f"wp.vec3({', '.join([draw_src] * 3)})", "vec3",
                     draw_mag, None)
    amount = k.p("jitter")
    if rng.random() < 0.5:
        w.emit(f"{k.at('pos')} = {k.at('pos')} + {amount.src} * {offset.src}")
    else:
        w.emit(f"{k.at('pos')} += {offset.src} * {amount.src}")
    k.written("pos")
    w.note_bound(f"{s}.pos", 2.0 + amount.mag * draw_mag)
    w.feature(f"random jitter ({form})")


CONTACT_CLASSES = ["Contact", "ContactPoint", "Hit"]


def contacts(k: ParticleKernel) -> None:
    """Collision detection writing a contact record per particle (`contacts: wp.array(dtype=Contact)`):
    against the ground plane or a sphere obstacle, the contact point on the surface, its normal and
    the penetration depth, and a flag; a particle out of contact writes a zeroed record (`Contact()`).
    The record is built with every member named (`Contact(point=..., normal=..., ...)`, as Warp
    requires all or none) or zeroed and filled member by member."""
    rng, w = k.rng, k.w
    k.make_state({"pos": "input"})
    sphere = rng.random() < 0.5
    k.make_params(["center", "sphere_radius"] if sphere else ["ground"])
    x = k.own("pos", rng.choice(["x", "p", "xi"]), "vec3", 2.0, 6)
    if sphere:
        c, r = k.p("center"), k.p("sphere_radius")
        d = k.local("d", f"{x.src} - {c.src}", "vec3", 3.0, None)
        dist = k.local("dist", f"wp.length({d.src})", "float32", 6.0, None)
        depth = k.local("depth", f"{r.src} - {dist.src}", "float32", 2.0, None)
        test = f"{depth.src} > 0.0 and {dist.src} > 0.0"
        normal, point = f"{d.src} / {dist.src}", f"{c.src} + {d.src} * ({r.src} / {dist.src})"
        point_mag = 0.5 + 2.0
        w.feature("sphere obstacle contacts")
    else:
        g = k.p("ground")
        depth = k.local("depth", f"{g.src} - {x.src}[1]", "float32", 3.5, None)
        test = f"{depth.src} > 0.0"
        normal, point = "wp.vec3(0.0, 1.0, 0.0)", f"wp.vec3({x.src}[0], {g.src}, {x.src}[2])"
        point_mag = 2.0
        w.feature("ground plane contacts")
    cls = rng.choice(CONTACT_CLASSES)
    members = [("point", "vec3", point), ("normal", "vec3", normal), ("depth", "float32", depth.src)]
    if rng.random() < 0.5:
        members.append(("active", "int32", "1"))
    out = w.add_records(cls, rng.choice(["contacts", "hits", "contact_out"]),
                        [record_member(m, dtype, "output", (k.n,)) for m, dtype, _ in members], (k.n,))
    spelling = rng.random()
    if spelling < 0.3:  # a zeroed record, filled where there is contact, stored by every thread
        rec = k.local("c", f"{cls}()", cls, 0.0)
        with w.block(f"if {test}:"):
            for m, _, value in members:
                w.emit(f"{rec.src}.{m} = {value}")
        w.emit(f"{out}[tid] = {rec.src}")
        w.feature("zeroed record filled where in contact, stored once")
    else:
        with w.block(f"if {test}:"):
            if spelling < 0.65:
                built = ", ".join(f"{m}={value}" for m, _, value in members)
                w.emit(f"{out}[tid] = {cls}({built})")
                w.feature("struct built with every member named")
            else:
                rec = k.local("c", f"{cls}()", cls, 0.0)
                for m, _, value in members:
                    w.emit(f"{rec.src}.{m} = {value}")
                w.emit(f"{out}[tid] = {rec.src}")
                w.feature("struct zeroed, then filled member by member")
        if rng.random() < 0.5:
            with w.block("else:"):
                w.emit(f"{out}[tid] = {cls}()")
            w.feature("zeroed record where there is no contact")
    w.note_bound(f"{out}.point", point_mag)
    w.note_bound(f"{out}.normal", 1.0)
    w.note_bound(f"{out}.depth", depth.mag)


BODIES = [integrate, springs, density, collide, kinetic_energy, jitter, contacts]
# Bodies that write a particle's position or velocity cannot share a launch with bodies that read other
# particles' (threads run at once on the GPU).
CONFLICTS = {frozenset((integrate, springs)), frozenset((integrate, density)), frozenset((jitter, springs)),
             frozenset((jitter, density)),
             # a damped spring reads other particles' velocities, which a collision writes (found on
             # the H100: a sample equal to Warp on the CPU, where threads run one after another)
             frozenset((collide, springs))}


# The bodies one particle step holds together, in the order they run: a step that moves the particles
# then keeps them above the ground or reports their energy, a ground bounce with the contact records of an
# obstacle, a bounce and the energy left. Any other two are two kernels' work in one launch (an SPH density
# beside obstacle contacts, a spring per thread beside an energy per particle), and none conflicts.
STEPS = [(integrate, collide), (collide, contacts), (integrate, kinetic_energy), (collide, kinetic_energy)]
# The share of kernels that hold one body alone, and each body's weight there: the bodies no step
# holds (springs, a density, a jitter) most, so that each is still drawn in a tenth of the kernels or so.
SINGLE_BODY_SHARE = 0.5
SINGLE_BODY_WEIGHTS = {integrate: 1.0, springs: 3.0, density: 3.0, collide: 0.5, kinetic_energy: 0.5, jitter: 2.0,
                       contacts: 1.0}


def generate(rng: random.Random, name: str, seed: int):
    k = ParticleKernel(rng, name, seed)
    if rng.random() < SINGLE_BODY_SHARE:
        bodies = rng.choices(BODIES, weights=[SINGLE_BODY_WEIGHTS[b] for b in BODIES])
    else:
        bodies = list(rng.choice(STEPS))
    for body in bodies:
        body(k)
    k.declare_structs()
    if rng.random() < 0.4:
        k.w.option("enable_backward", "False")
    return k.w.finish("Particle kernel with struct arguments")
