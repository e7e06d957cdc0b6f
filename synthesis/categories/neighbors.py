"""Neighbour queries through a `wp.HashGrid` or a `wp.Bvh`: counts, SPH sums, flocking averages, contact forces.

Like Warp's SPH, DEM and particle examples: a `wp.uint64` argument is the id of a hash grid built
over the particles' positions (`grid.build(x, cell_width)` on the host); each thread takes one
particle (`i = wp.hash_grid_point_id(grid, tid)`, so threads visit particles in cell order, or
simply `i = tid`), walks the particles in the cells around it (`for j in wp.hash_grid_query(grid,
p, radius):`, a named query, or `while wp.hash_grid_query_next(query, j):`) and keeps those within
the radius. A query returns every particle of the cells it visits, itself included: the kernels
test the distance, and skip themselves where a pair term would divide by zero.

Or (BVH_SHARE) a `wp.uint64` is the id of a `wp.Bvh` over one box per particle, as broad phases are
written: zero-size boxes at the positions queried with the box around p (`wp.bvh_query_aabb(bvh,
p - wp.vec3(r), p + wp.vec3(r))`) or the sphere (`wp.bvh_query_sphere(bvh, p, r)`), or each
particle's box of half width r queried at p itself (`wp.bvh_query_aabb(bvh, p, p)`); `while
wp.bvh_query_next(query, j):` walks what it finds, and the same distance test keeps the neighbours.
Threads take particles in index order. A third of the BVH kernels cast rays at the particles'
spheres instead (`wp.bvh_query_ray`, a thread per ray).

Numerics: positions lie on a 1/64 grid inside a box sized for 8-24 neighbours per query, so squared
distances and `r2 < h * h` are exact, and so are the BVH's boxes; sums run in the grid's visiting
order, which the .cu reproduces, so they round alike. A BVH yields its items in its tree's order, and
the .cu builds a tree of its own: sums over a BVH's neighbours equal Warp's within the tolerance,
not bit for bit (counts, minima and lists of a whole neighbourhood exactly), so the fixed-size
neighbour list, which keeps the first neighbours found, uses a hash grid only.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace

from synthesis.exprgen import feature_list, fmt_float
from synthesis.spec import ArgSpec, KernelSpec
from synthesis.naming import untaken

POINT_COUNTS = (256, 500, 512, 1000, 1024)
RADII = (0.25, 0.375, 0.5, 0.625, 0.75)
NEIGHBOURS = (8, 12, 16, 24)  # the mean neighbours per query a box is sized for
GRID_DIMS = (16, 32, 64)
GRID_NAMES = ("grid", "grid_id", "hash_grid", "neighbor_grid")
BVH_NAMES = ("bvh", "bvh_id", "particle_bvh", "broadphase")
BVH_SHARE = 0.3  # kernels whose neighbours come from a wp.Bvh instead of a hash grid
POINT_BOX_SHARE = 0.5  # a BVH over zero-size boxes at the particles, queried with the box around p
SPHERE_QUERY_SHARE = 0.4  # a BVH over the particles queried with wp.bvh_query_sphere rather than a box
RAY_SHARE = 0.3  # BVH kernels that cast rays at the particles' spheres instead (a thread per ray)
# rays per kernel: no point count (POINT_COUNTS) is a multiple of one, so at bench size the rays grow and
# the particles keep their number (bench.scale_factor), as a scene does while more rays are cast at it
RAY_COUNTS = (384, 640, 768)
RAY_RADIUS_NAMES = ("radius", "particle_radius", "sphere_radius")
RAY_OUTPUTS = ("distance", "normal", "shading")
EYE_SHARE = 0.4  # rays from one camera position rather than an origin per ray
DIRECTIONS_SHARE = 0.35  # directions given per ray rather than aimed at target points
MAX_T_SHARE = 0.3  # a ray length argument, the nearest-hit search starting from it
RAY_HELPER_SHARE = 0.35  # the ray-sphere test as a @wp.func returning t (or -1.0 for a miss)
POSITION_NAMES = ("x", "pos", "positions", "particle_x", "points")
VELOCITY_NAMES = ("v", "vel", "velocities", "particle_v")
RADIUS_NAMES = ("radius", "query_radius", "neighbor_radius", "cutoff")  # what each form's radius is called
FORM_RADIUS_NAMES = {"sph_density": ("h", "smoothing_length", "radius"), "sph_pressure_force": ("h", "smoothing_length"),
                     "sph_viscosity": ("h", "smoothing_length", "radius"), "lennard_jones": ("cutoff", "r_cut"),
                     "contact_force": ("radius", "particle_radius", "contact_distance"),
                     "separation": ("radius", "min_distance", "spacing")}
POINT_ID_SHARE = 0.6  # threads take particles in cell order (hash_grid_point_id), as Warp's examples do
HELPER_SHARE = 0.45  # a pair term written as a @wp.func
RADIUS_CONSTANT_SHARE = 0.3  # the radius as a module constant rather than a kernel argument
STATIC_NORM_SHARE = 0.5  # with the radius a module constant: the normalisation written as wp.static(formula)
FORWARD_ONLY_SHARE = 0.5


@dataclass
class NeighborKernel:
    """One kernel under construction: arguments, module constants, helpers and the body's lines."""

    rng: random.Random
    name: str
    seed: int
    args: list[ArgSpec] = field(default_factory=list)
    annotations: list[str] = field(default_factory=list)
    constants: dict[str, str] = field(default_factory=dict)
    helpers: list[str] = field(default_factory=list)
    helper_names: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    features: list[str] = field(default_factory=list)
    depth: int = 1
    n: int = 0
    radius: float = 0.5
    half_box: float = 2.0
    crowd: int = 64  # a bound on the particles within the radius of any one (the tolerance's scale)
    grid: str = "grid"
    structure: str = "hash_grid"  # or "bvh"
    bvh_half: float = 0.0  # a BVH's boxes: half width around each particle (0.0: the position itself)
    x: str = "x"
    r: str = "radius"  # how the body spells the radius: an argument or a constant
    i: str = "i"
    p: str = "p"

    # ---- module and arguments ----------------------------------------------------------------
    def taken(self) -> set[str]:
        """Every name in use: arguments, constants, helpers and the body's locals (Warp lets no
        local share a parameter's name)."""
        locals_ = {ln.strip().split(" = ")[0] for ln in self.lines if " = " in ln}
        loops = {ln.split()[1] for ln in self.lines if ln.strip().startswith("for ")}
        return {a.name for a in self.args} | set(self.constants) | set(self.helper_names) | locals_ | loops

    def unique(self, hint: str, role: str = "") -> str:
        return untaken(hint, self.taken(), role)

    def keep_size(self, name: str) -> None:
        """Array `name` keeps its size at bench size (ArgSpec.keeps_size): an image whose pixel coordinates
        the code writes as literals (a camera's `(float(x) - 63.5) / 48.0`); the launch shaped like it
        keeps its own with it (cuda_production.bench.pinned_launch)."""
        i = next(k for k, a in enumerate(self.args) if a.name == name)
        self.args[i] = replace(self.args[i], keeps_size=True)

    def array(self, hint: str, dtype: str, role: str, low: float = -1.0, high: float = 1.0, grid_bits: int = 10,
              bound: float = 1.0, shape: tuple[int, ...] | None = None) -> str:
        """An array argument of one element per particle (or of `shape`), annotated as people do."""
        name = self.unique(hint, role)
        elem = {"float32": "float", "int32": "int", "vec3": "wp.vec3"}[dtype]
        shape = shape or (self.n,)
        if len(shape) == 1:
            ann = self.rng.choice([f"wp.array(dtype={elem})", f"wp.array[{elem}]"])
        else:
            ann = self.rng.choice([f"wp.array{len(shape)}d(dtype={elem})", f"wp.array(dtype={elem}, ndim={len(shape)})"])
        self.args.append(ArgSpec(name, dtype, role, shape, low, high, grid_bits,
                                 bound=max(bound, abs(low), abs(high), 1.0)))
        self.annotations.append(f"{name}: {ann}")
        return name

    def scalar(self, hint: str, value: float) -> str:
        name = self.unique(hint)
        self.args.append(ArgSpec(name, "float32", "scalar", (), value, value, 0, value=value))
        self.annotations.append(f"{name}: float")
        return name

    def knob(self, hints: tuple[str, ...], value: float, constant_share: float = 0.3) -> str:
        """A coefficient: a kernel argument (mostly) or a module constant."""
        if self.rng.random() < constant_share:
            name = self.unique(self.rng.choice(hints).upper())
            style = self.rng.choice(["wp.constant({})", "{}"])
            self.constants[name] = f"{name} = {style.format(fmt_float(value))}"
            return name
        return self.scalar(self.rng.choice(hints), value)

    def helper(self, kind: str, params: list[tuple[str, str]], returns: str, body: list[str]) -> str:
        name = self.unique(f"{kind}")
        text = ", ".join(f"{p}: {t}" for p, t in params)
        self.helpers.append(f"@wp.func\ndef {name}({text}) -> {returns}:\n" + "\n".join("    " + b for b in body))
        self.helper_names.append(name)
        self.features.append(f"@wp.func pair term ({kind.replace('_', ' ')})")
        return name

    # ---- body --------------------------------------------------------------------------------
    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def block(self, header: str) -> "_Block":
        return _Block(self, header)

    def local(self, hint: str) -> str:
        """A local's name no argument, constant or earlier local takes."""
        return untaken(hint, self.taken(), "local")

    def neighbours(self, reach: str = "") -> "_Block":
        """The loop over the particles the query returns (within `reach` of p, the radius unless
        given), in one of the three ways Warp code writes it."""
        rng = self.rng
        j = self.local(rng.choice(["j", "j", "index", "other"]))
        if self.structure == "bvh":
            return self.bvh_candidates(j, reach or self.r)
        how = rng.choice(["for", "for", "named", "while"])
        call = f"wp.hash_grid_query({self.grid}, {self.p}, {reach or self.r})"
        if how == "for":
            header = f"for {j} in {call}:"
        elif how == "named":
            q = self.local(rng.choice(["neighbors", "query", "nbrs"]))
            self.emit(f"{q} = {call}")
            header = f"for {j} in {q}:"
        else:
            q = self.local(rng.choice(["query", "q"]))
            self.emit(f"{q} = {call}")
            self.emit(f"{j} = int(0)")
            header = f"while wp.hash_grid_query_next({q}, {j}):"
        self.features.append({"for": "for over wp.hash_grid_query", "named": "for over a named query",
                              "while": "while wp.hash_grid_query_next"}[how])
        return _Block(self, header, j)

    def bvh_candidates(self, j: str, reach: str) -> "_Block":
        """The loop over what a box query of the BVH finds: every particle whose box touches the query's
        box, a superset of those within `reach` (the body's distance test keeps those)."""
        rng = self.rng
        q = self.local(rng.choice(["query", "q", "candidates"]))
        if self.bvh_half > 0.0 and reach == self.r:  # each particle's box already reaches r around it
            self.emit(f"{q} = wp.bvh_query_aabb({self.grid}, {self.p}, {self.p})")
            self.features.append("BVH of particle boxes queried at the particle")
        elif rng.random() < SPHERE_QUERY_SHARE:  # the points within `reach` of p (the boxes are points)
            self.emit(f"{q} = wp.bvh_query_sphere({self.grid}, {self.p}, {reach})")
            self.features.append("BVH queried with a sphere around the particle")
        else:
            extent = f"wp.vec3({reach})"
            if rng.random() < 0.4:
                lower, upper = self.local(rng.choice(["lower", "lo", "box_lower"])), ""
                self.emit(f"{lower} = {self.p} - {extent}")
                upper = self.local({"lower": "upper", "lo": "hi", "box_lower": "box_upper"}[lower.rstrip("0123456789")])
                self.emit(f"{upper} = {self.p} + {extent}")
            else:
                lower, upper = f"{self.p} - {extent}", f"{self.p} + {extent}"
            self.emit(f"{q} = wp.bvh_query_aabb({self.grid}, {lower}, {upper})")
            self.features.append("BVH queried with the box around the particle")
        self.emit(f"{j} = int(0)")
        self.features.append("while wp.bvh_query_next")
        return _Block(self, f"while wp.bvh_query_next({q}, {j}):", j)

    def source(self) -> str:
        decorator = "@wp.kernel(enable_backward=False)" if self.rng.random() < FORWARD_ONLY_SHARE else "@wp.kernel"
        prelude = "".join(c + "\n" for c in self.constants.values()) + ("\n" if self.constants else "")
        helpers = "".join(h + "\n\n" for h in self.helpers)
        header = f"{decorator}\ndef {self.name}({', '.join(self.annotations)}):\n"
        return prelude + helpers + header + "\n".join(self.lines) + "\n"


class _Block:
    def __init__(self, k: NeighborKernel, header: str, var: str = ""):
        self.k, self.header, self.var = k, header, var

    def __enter__(self) -> str:
        self.k.emit(self.header)
        self.k.depth += 1
        return self.var

    def __exit__(self, *exc) -> None:
        self.k.depth -= 1


class Pair:
    """The loop over a particle's neighbours and the test that keeps the ones within reach, written
    one of the ways people write it; inside, `j` is the neighbour, `d` the offset p - x[j] (when
    asked for), `dist` its length (when asked for) and `xj` how the body reads x[j].

    Variants: x[j] loaded once into a local or read in place; the test by length or by squared
    length (exact: positions on a 1/64 grid), nested (`if dist < r:`) or as an early `continue`; the
    particle itself left out by `if j == i: continue`, a block `if j != i:`, or inside the test."""

    def __init__(self, k: NeighborKernel, need_dist: bool = False, skip_self: bool | None = None, reach: str = "",
                 offset: bool = True, need_r2: bool = False):
        self.k = k
        self.need_dist = need_dist
        self.need_r2 = need_r2  # the squared length in a local `r2` (a body that uses it again)
        self.skip_self = k.rng.random() < 0.5 if skip_self is None else skip_self
        self.reach = reach or k.r
        self.offset = offset  # the body uses the offset vector d
        self.blocks: list = []
        self.j = self.d = self.dist = self.xj = self.r2 = ""

    def __enter__(self) -> "Pair":
        k, rng = self.k, self.k.rng
        loop = k.neighbours(self.reach if self.reach != k.r else "")
        self.j = loop.__enter__()
        self.blocks.append(loop)
        j = self.j
        merged_self = self.skip_self and rng.random() < 0.3
        if self.skip_self and not merged_self:
            if rng.random() < 0.5:
                with k.block(f"if {j} == {k.i}:"):
                    k.emit("continue")
            else:
                self._open(f"if {j} != {k.i}:")
        if rng.random() < 0.35:
            self.xj = k.local(rng.choice(["x_j", "xj", "pos_j", "q"]))
            k.emit(f"{self.xj} = {k.x}[{j}]")
        else:
            self.xj = f"{k.x}[{j}]"
        by_length = self.need_dist or not self.need_r2 and rng.random() < 0.4
        if self.offset or by_length and rng.random() < 0.6:
            self.d = k.local(rng.choice(["d", "delta", "r_ij", "dx"]))
            k.emit(f"{self.d} = {k.p} - {self.xj}")
            diff = self.d
        else:
            diff = f"{k.p} - {self.xj}"
        if by_length:
            self.dist = k.local(rng.choice(["dist", "r", "r_len"]))
            k.emit(f"{self.dist} = wp.length({diff})")
            value, bound = self.dist, self.reach
        else:
            # the offset written out once: wp.dot of it twice would compute it twice
            square = rng.choice(["wp.dot({0}, {0})", "wp.length_sq({0})"] if self.d else ["wp.length_sq({0})"]).format(diff)
            if self.need_r2 or rng.random() < 0.5:
                self.r2 = k.local(rng.choice(["r2", "dist2", "d2"]))
                k.emit(f"{self.r2} = {square}")
                square = self.r2
            value, bound = square, (f"{self.reach} * {self.reach}" if " " not in self.reach
                                    else f"({self.reach}) * ({self.reach})")
        keep, drop = rng.choice([("<", ">="), ("<=", ">")])
        if merged_self:
            self._open(f"if {j} != {k.i} and {value} {keep} {bound}:")
        elif rng.random() < 0.35:
            with k.block(f"if {value} {drop} {bound}:"):
                k.emit("continue")
        else:
            self._open(f"if {value} {keep} {bound}:")
        return self

    def _open(self, header: str) -> None:
        block = self.k.block(header)
        block.__enter__()
        self.blocks.append(block)

    def __exit__(self, *exc) -> None:
        for block in reversed(self.blocks):
            block.__exit__(*exc)


def knob_or_helper(k: NeighborKernel, kind: str, params: list[tuple[str, str, str]], returns: str,
                   body: list[str], inline: str) -> str:
    """A pair term: a `@wp.func` called with the values (HELPER_SHARE), or its expression inline.
    params: (name in the helper, its annotation, the value the kernel passes)."""
    if k.rng.random() < HELPER_SHARE:
        name = k.helper(kind, [(p, t) for p, t, _ in params], returns, body)
        return f"{name}({', '.join(v for _, _, v in params)})"
    return inline


# ---- forms: each writes the body after `p = x[i]` and returns its summary -----------------------

def neighbor_count(k: NeighborKernel) -> str:
    rng = k.rng
    out = k.array(rng.choice(["neighbor_count", "counts", "num_neighbors"]), "int32", "output", bound=k.crowd)
    c = k.local(rng.choice(["count", "n", "num"]))
    k.emit(f"{c} = int(0)")
    with Pair(k, offset=False):
        k.emit(f"{c} += 1")
    k.emit(f"{out}[{k.i}] = {c}")
    return "Neighbour count within a radius"


def neighbor_list(k: NeighborKernel) -> str:
    """A fixed-size neighbour list per particle (the first ones within the radius, in the grid's
    visiting order, as many as a row holds: its `.shape[1]`), unused slots -1, and the count kept."""
    rng = k.rng
    slots = rng.choice([8, 16, 32])
    lst = k.unique(rng.choice(["neighbor_list", "nbr_list", "neighbors_out"]))
    k.args.append(ArgSpec(lst, "int32", "output", (k.n, slots), bound=float(k.n)))
    k.annotations.append(f"{lst}: wp.array2d(dtype=int)")
    counted = rng.random() < 0.6
    if rng.random() < 0.6:
        cap = k.local(rng.choice(["max_neighbors", "capacity", "max_n"]))
        k.emit(f"{cap} = {lst}.shape[1]")
    else:
        cap = f"{lst}.shape[1]"
    c = k.local(rng.choice(["count", "n", "num"]))
    k.emit(f"{c} = int(0)")
    with Pair(k, skip_self=True, offset=False) as pair:
        with k.block(f"if {c} < {cap}:"):
            k.emit(f"{lst}[{k.i}, {c}] = {pair.j}")
            k.emit(f"{c} += 1")
    s = k.local(rng.choice(["s", "slot", "m"]))
    with k.block(f"for {s} in range({c}, {cap}):"):
        k.emit(f"{lst}[{k.i}, {s}] = -1")
    if counted:
        out = k.array(rng.choice(["neighbor_count", "counts", "num_neighbors"]), "int32", "output", bound=slots)
        k.emit(f"{out}[{k.i}] = {c}")
    return "Fixed-size neighbour lists from a hash grid" + (" with their counts" if counted else "")


def sph_density(k: NeighborKernel) -> str:
    """SPH density: sum of m (h^2 - r^2)^3 over the neighbours (poly6), times its normalisation."""
    rng = k.rng
    h2 = k.local("h2" if k.r != "h2" else "hh")
    k.emit(f"{h2} = {k.r} * {k.r}")
    per_particle = rng.random() < 0.4
    mass = k.array(rng.choice(["mass", "m", "particle_mass"]), "float32", "input", 0.25, 2.0, 4) if per_particle \
        else k.knob(("mass", "particle_mass", "m"), rng.choice([0.25, 0.5, 1.0, 2.0]))
    coef = 315.0 / (64.0 * math.pi * k.radius ** 9)
    rho = k.local(rng.choice(["rho", "density", "total"]))
    k.emit(f"{rho} = float(0.0)")
    with k.neighbours() as j:
        xj = f"{k.x}[{j}]"
        if rng.random() < 0.3:
            xj = k.local(rng.choice(["x_j", "pos_j"]))
            k.emit(f"{xj} = {k.x}[{j}]")
        d = k.local(rng.choice(["d", "delta", "r_ij"]))
        k.emit(f"{d} = {k.p} - {xj}")
        r2 = k.local("r2")
        k.emit(f"{r2} = wp.dot({d}, {d})" if rng.random() < 0.6 else f"{r2} = wp.length_sq({d})")
        with k.block(f"if {r2} < {h2}:"):
            m = f"{mass}[{j}]" if per_particle else mass
            w = k.local(rng.choice(["w", "q", "diff"]))
            term = knob_or_helper(k, "poly6", [("r2", "float", r2), ("h2", "float", h2)], "float",
                                  ["w = h2 - r2", "return w * w * w"], "")
            if term:
                k.emit(f"{rho} += {m} * {term}")
            elif rng.random() < 0.5:
                k.emit(f"{w} = {h2} - {r2}")
                k.emit(f"{rho} += {m} * {w} * {w} * {w}")
            else:
                k.emit(f"{rho} += {m} * wp.pow({h2} - {r2}, 3.0)")
    out = k.array(rng.choice(["density", "rho_out", "densities"]), "float32", "output",
                  bound=k.crowd * 2.0 * coef * k.radius ** 6)
    norm = normalisation(k, ("POLY6", "POLY6_NORM", "KERNEL_NORM"), "315.0 / (64.0 * wp.pi * {h} ** 9)", coef)
    k.emit(f"{out}[{k.i}] = {rho} * {norm}")
    return "SPH density (poly6 kernel) over hash-grid neighbours"


def normalisation(k: NeighborKernel, names: tuple[str, ...], formula: str, coef: float) -> str:
    """A smoothing kernel's normalisation, as the kernel multiplies by it: where the radius is a module
    constant, sometimes (STATIC_NORM_SHARE) its formula over the radius (`{h}` in `formula`) inside
    `wp.static(...)`, which Warp evaluates in Python when it builds the kernel; otherwise a module
    constant holding `coef` to four significant digits."""
    if k.r in k.constants and k.rng.random() < STATIC_NORM_SHARE:
        k.features.append("normalisation evaluated when Warp builds the kernel (wp.static)")
        return f"wp.static({formula.format(h=k.r)})"
    norm = k.unique(k.rng.choice(names))
    k.constants[norm] = f"{norm} = {k.rng.choice(['wp.constant({})', '{}']).format(fmt_float(_round_sig(coef)))}"
    return norm


def _round_sig(x: float) -> float:
    """A normalisation constant written as people write one: four significant digits."""
    return float(f"{x:.4g}")


def flock_average(k: NeighborKernel) -> str:
    """Boids: the mean velocity (alignment) or position (cohesion) of the neighbours, or a steer
    toward it."""
    rng = k.rng
    of_velocity = rng.random() < 0.5
    vel = k.array(rng.choice(VELOCITY_NAMES), "vec3", "input", -1.0, 1.0, 6) if of_velocity else k.x
    total = k.local(rng.choice(["total", "avg", "acc", "sum_v"]))
    k.emit(f"{total} = {rng.choice(['wp.vec3(0.0)', 'wp.vec3()', 'wp.vec3(0.0, 0.0, 0.0)'])}")
    c = k.local(rng.choice(["count", "n", "num"]))
    k.emit(f"{c} = int(0)" if rng.random() < 0.7 else f"{c} = float(0.0)")  # never a bare 0: Warp keeps it constant
    as_float = k.lines[-1].endswith("float(0.0)")
    with Pair(k, offset=False) as pair:
        k.emit(f"{total} += {vel}[{pair.j}]" if of_velocity else f"{total} += {pair.xj}")
        k.emit(f"{c} += {'1.0' if as_float else '1'}")
    count = c if as_float else f"float({c})"
    steer = rng.random() < 0.5
    own = f"{vel}[{k.i}]" if of_velocity else k.p
    if steer:
        gain = k.knob(("gain", "weight", "strength", "alignment"), rng.choice([0.125, 0.25, 0.5]))
        res = k.local(rng.choice(["steer", "dv", "correction"]))
        k.emit(f"{res} = wp.vec3(0.0)")
        with k.block(f"if {c} > {'0.0' if as_float else '0'}:"):
            k.emit(f"{res} = ({total} / {count} - {own}) * {gain}")
        value, what, bound = res, "steering toward the mean of", 4.0
    else:
        with k.block(f"if {c} > {'0.0' if as_float else '0'}:"):
            k.emit(f"{total} = {total} / {count}" if rng.random() < 0.5 else f"{total} /= {count}")
        value, what, bound = total, "the mean of", 2.0 * k.half_box
    names = (["alignment", "avg_vel", "steer"] if of_velocity else ["cohesion", "steer", "to_center"] if steer
             else ["centroid", "center", "avg_pos"])
    out = k.array(rng.choice(names), "vec3", "output", bound=bound)
    k.emit(f"{out}[{k.i}] = {value}")
    return f"Flocking: {what} the neighbours' {'velocity' if of_velocity else 'position'}"


def contact_force(k: NeighborKernel) -> str:
    """DEM: a linear spring pushes overlapping particles apart along the normal, with damping of the
    normal relative velocity in some kernels."""
    rng = k.rng
    stiffness = k.knob(("k_contact", "stiffness", "ke", "k_n"), rng.choice([1.0, 2.0, 4.0, 8.0]))
    damped = rng.random() < 0.5
    vel = k.array(rng.choice(VELOCITY_NAMES), "vec3", "input", -1.0, 1.0, 6) if damped else ""
    damping = k.knob(("damping", "kd", "c_n"), rng.choice([0.125, 0.25, 0.5])) if damped else ""
    f = k.local(rng.choice(["f", "force", "f_total"]))
    k.emit(f"{f} = wp.vec3(0.0)")
    # particles of the given radius touch closer than twice it (the query reaches that far), or
    # the radius argument is already the contact distance
    diameter = rng.random() < 0.5
    reach = k.r if diameter else f"2.0 * {k.r}"
    with Pair(k, need_dist=True, skip_self=True, reach=reach) as pair:
        n = k.local(rng.choice(["n", "normal", "dir"]))
        k.emit(f"{n} = {pair.d} / {pair.dist}" if rng.random() < 0.6 else f"{n} = wp.normalize({pair.d})")
        overlap = k.local(rng.choice(["overlap", "pen", "c"]))
        k.emit(f"{overlap} = {reach} - {pair.dist}")
        if damped:
            vn = k.local(rng.choice(["vn", "v_rel", "vrel_n"]))
            k.emit(f"{vn} = wp.dot({vel}[{k.i}] - {vel}[{pair.j}], {n})")
            k.emit(f"{f} += {n} * ({stiffness} * {overlap} - {damping} * {vn})")
        else:
            k.emit(f"{f} += {n} * ({stiffness} * {overlap})" if rng.random() < 0.5
                   else f"{f} += {stiffness} * {overlap} * {n}")
    out = k.array(rng.choice(["force", "f_contact", "forces"]), "vec3", "output", bound=k.crowd * 8.0 * 2.0)
    k.emit(f"{out}[{k.i}] = {f}")
    return "Contact forces (DEM) from overlapping neighbours" + (" with normal damping" if damped else "")


def lennard_jones(k: NeighborKernel) -> str:
    """Molecular dynamics: the Lennard-Jones force within a cutoff, 24 eps (2 (s/r)^12 - (s/r)^6) / r^2
    along the offset, with sigma below the typical spacing."""
    rng = k.rng
    eps = k.knob(("epsilon", "eps", "well_depth"), rng.choice([0.25, 0.5, 1.0]))
    sigma_value = k.radius * rng.choice([0.25, 0.375])
    sigma = k.knob(("sigma", "sigma_lj", "r_min"), sigma_value)
    f = k.local(rng.choice(["f", "force", "f_lj"]))
    k.emit(f"{f} = wp.vec3(0.0)")
    s2 = k.local("s2")
    k.emit(f"{s2} = {sigma} * {sigma}")
    with Pair(k, skip_self=True, need_r2=True) as pair:
        r2 = k.local(rng.choice(["r2c", "r2_safe", "rr"]))
        k.emit(f"{r2} = wp.max({pair.r2}, {s2} * 0.25)")  # two particles never closer than sigma/2
        sr2 = k.local(rng.choice(["sr2", "inv"]))
        k.emit(f"{sr2} = {s2} / {r2}")
        sr6 = k.local("sr6")
        k.emit(f"{sr6} = {sr2} * {sr2} * {sr2}")
        k.emit(f"{f} += {pair.d} * (24.0 * {eps} * (2.0 * {sr6} * {sr6} - {sr6}) / {r2})")
    out = k.array(rng.choice(["force", "f_lj", "forces"]), "vec3", "output",
                  bound=k.crowd * 24.0 * 1.0 * 2.0 * 4096.0 * 4.0 / sigma_value)
    k.emit(f"{out}[{k.i}] = {f}")
    return "Lennard-Jones forces within a cutoff"


def separation(k: NeighborKernel) -> str:
    """Position-based separation: each particle moves half of every overlap away from its
    neighbours (a Jacobi step of a PBD contact constraint), scaled by a relaxation factor."""
    rng = k.rng
    relax = k.knob(("relaxation", "omega", "stiffness"), rng.choice([0.25, 0.5, 0.75, 1.0]))
    dp = k.local(rng.choice(["dp", "delta_x", "correction"]))
    k.emit(f"{dp} = wp.vec3(0.0)")
    with Pair(k, need_dist=True, skip_self=True) as pair:
        with k.block(f"if {pair.dist} > 0.0:"):
            k.emit(f"{dp} += {pair.d} * (0.5 * ({k.r} - {pair.dist}) / {pair.dist})")
    in_place = rng.random() < 0.4
    if in_place:
        out = k.array(rng.choice(["x_new", "pos_out", "predicted"]), "vec3", "output", bound=k.half_box + 64.0)
        k.emit(f"{out}[{k.i}] = {k.p} + {dp} * {relax}")
        return "Position-based separation of overlapping neighbours (new positions)"
    out = k.array(rng.choice(["dp", "delta_out", "corrections"]), "vec3", "output", bound=64.0)
    k.emit(f"{out}[{k.i}] = {dp} * {relax}")
    return "Position-based separation of overlapping neighbours (corrections)"


def nearest_distance(k: NeighborKernel) -> str:
    rng = k.rng
    best = k.local(rng.choice(["nearest", "min_dist", "closest"]))
    k.emit(f"{best} = {k.r}")
    with Pair(k, need_dist=True, skip_self=True, offset=rng.random() < 0.5) as pair:
        if rng.random() < 0.5:
            k.emit(f"{best} = wp.min({best}, {pair.dist})")
        else:
            with k.block(f"if {pair.dist} < {best}:"):
                k.emit(f"{best} = {pair.dist}")
    out = k.array(rng.choice(["nearest", "min_dist", "spacing"]), "float32", "output", bound=k.radius)
    k.emit(f"{out}[{k.i}] = {best}")
    return "Distance to the nearest neighbour within a radius"


def sph_pressure_force(k: NeighborKernel) -> str:
    """SPH pressure force: the spiky kernel's gradient weighted by the pair's mean pressure over
    the neighbour's density; pressure from density by an equation of state."""
    rng = k.rng
    rho = k.array(rng.choice(["rho", "density", "densities"]), "float32", "input", 0.5, 2.0, 6)
    stiffness = k.knob(("stiffness", "k_pressure", "gas_constant"), rng.choice([0.5, 1.0, 2.0]))
    rest = k.knob(("rest_density", "rho0"), rng.choice([0.75, 1.0, 1.25]))
    mass = k.knob(("mass", "particle_mass"), rng.choice([0.25, 0.5, 1.0]))
    pi = k.local(rng.choice(["p_i", "pressure_i", "press"]))
    k.emit(f"{pi} = {stiffness} * ({rho}[{k.i}] - {rest})")
    f = k.local(rng.choice(["f", "force", "f_pressure"]))
    k.emit(f"{f} = wp.vec3(0.0)")
    with Pair(k, need_dist=True, skip_self=True) as pair:
        with k.block(f"if {pair.dist} > 0.0:"):
            pj = k.local(rng.choice(["p_j", "pressure_j"]))
            k.emit(f"{pj} = {stiffness} * ({rho}[{pair.j}] - {rest})")
            scale = f"{mass} * ({pi} + {pj}) / (2.0 * {rho}[{pair.j}])"
            grad = knob_or_helper(k, "spiky_grad", [("d", "wp.vec3", pair.d), ("r", "float", pair.dist),
                                                    ("h", "float", k.r)], "wp.vec3",
                                  ["t = h - r", "return d * (t * t / r)"], "")
            if grad:
                k.emit(f"{f} += {grad} * ({scale})")
            else:
                t = k.local(rng.choice(["t", "q", "diff"]))
                k.emit(f"{t} = {k.r} - {pair.dist}")
                k.emit(f"{f} += {pair.d} / {pair.dist} * ({scale} * {t} * {t})")
    coef = 45.0 / (math.pi * k.radius ** 6)
    norm = normalisation(k, ("SPIKY", "SPIKY_GRAD", "GRAD_NORM"), "45.0 / (wp.pi * {h} ** 6)", coef)
    out = k.array(rng.choice(["force", "f_pressure", "accel"]), "vec3", "output",
                  bound=k.crowd * coef * 4.0 * k.radius ** 3)
    k.emit(f"{out}[{k.i}] = {f} * {norm}")
    return "SPH pressure force (spiky kernel gradient) over hash-grid neighbours"


def sph_viscosity(k: NeighborKernel) -> str:
    """SPH viscosity: velocity differences to the neighbours, weighted by (h - r) / rho_j."""
    rng = k.rng
    vel = k.array(rng.choice(VELOCITY_NAMES), "vec3", "input", -1.0, 1.0, 6)
    rho = k.array(rng.choice(["rho", "density"]), "float32", "input", 0.5, 2.0, 6)
    mu = k.knob(("viscosity", "mu", "nu"), rng.choice([0.0625, 0.125, 0.25]))
    acc = k.local(rng.choice(["acc", "dv", "f_visc"]))
    k.emit(f"{acc} = wp.vec3(0.0)")
    vi = k.local(rng.choice(["v_i", "vi"]))
    k.emit(f"{vi} = {vel}[{k.i}]")
    with Pair(k, need_dist=True, offset=rng.random() < 0.5) as pair:
        weight = knob_or_helper(k, "visc_weight", [("r", "float", pair.dist), ("h", "float", k.r)], "float",
                                ["return h - r"], f"({k.r} - {pair.dist})")
        k.emit(f"{acc} += ({vel}[{pair.j}] - {vi}) * ({weight} / {rho}[{pair.j}])")
    out = k.array(rng.choice(["f_visc", "visc_accel", "dv_out"]), "vec3", "output", bound=k.crowd * 4.0 * k.radius)
    k.emit(f"{out}[{k.i}] = {acc} * {mu}")
    return "SPH viscosity over hash-grid neighbours"


def shepard_interpolation(k: NeighborKernel) -> str:
    """A field value at each particle smoothed from its neighbours: sum w a_j / sum w (Shepard), with
    a falloff weight; the particle keeps its own value where no weight accumulates."""
    rng = k.rng
    field_ = k.array(rng.choice(["temperature", "field", "values", "color"]), "float32", "input", -1.0, 1.0, 8)
    num = k.local(rng.choice(["num", "weighted", "acc"]))
    den = k.local(rng.choice(["den", "weight_sum", "wsum"]))
    k.emit(f"{num} = float(0.0)")
    k.emit(f"{den} = float(0.0)")
    with Pair(k, need_dist=True, offset=rng.random() < 0.5) as pair:
        w = k.local(rng.choice(["w", "weight"]))
        how = rng.choice(["quadratic", "linear", "helper"])
        if how == "quadratic":
            q = k.local("q")
            k.emit(f"{q} = 1.0 - {pair.dist} / {k.r}")
            k.emit(f"{w} = {q} * {q}")
        elif how == "linear":
            k.emit(f"{w} = {k.r} - {pair.dist}")
        else:
            name = k.helper("falloff", [("r", "float"), ("h", "float")], "float",
                            ["q = 1.0 - r / h", "return q * q * q"])
            k.emit(f"{w} = {name}({pair.dist}, {k.r})")
        k.emit(f"{num} += {w} * {field_}[{pair.j}]")
        k.emit(f"{den} += {w}")
    out = k.array(rng.choice(["smoothed", "field_out", "interp"]), "float32", "output", bound=1.0)
    value = k.local(rng.choice(["value", "result"]))
    k.emit(f"{value} = {field_}[{k.i}]")
    with k.block(f"if {den} > 0.0:"):
        k.emit(f"{value} = {num} / {den}")
    k.emit(f"{out}[{k.i}] = {value}")
    return "Shepard interpolation of a field from hash-grid neighbours"


FORMS = (neighbor_count, neighbor_list, sph_density, flock_average, contact_force, lennard_jones, separation,
         nearest_distance, sph_pressure_force, sph_viscosity, shepard_interpolation)


def ray_cast(k: NeighborKernel) -> KernelSpec:
    """Rays cast at the particles, each a sphere of the radius, through a BVH over the spheres' boxes
    (`wp.bvh_query_ray`), a thread per ray, as picking and particle rendering do: each box the ray
    meets is tested exactly (the ray-sphere quadratic) and the nearest hit kept; the hit's distance
    and particle, its normal, or a shade (the normal against the view direction). Rays start off one
    corner of the particles' box and aim at points inside it, so most hit."""
    rng = k.rng
    n_rays = rng.choice(RAY_COUNTS)
    box = k.half_box
    k.emit("tid = wp.tid()")
    d = k.local(rng.choice(["d", "ray_dir", "direction"]))
    if rng.random() < EYE_SHARE:  # one camera for every ray, by value, off the particles' corner
        eye = k.unique(rng.choice(["eye", "camera_pos", "cam"]))
        value = tuple(-box - rng.choice((0.625, 0.75, 0.875)) for _ in range(3))
        k.args.append(ArgSpec(eye, "vec3", "scalar", (), min(value), max(value), 0, value=value))
        k.annotations.append(f"{eye}: wp.vec3")
        o, origins = eye, ""
        k.features.append("one camera position (by-value wp.vec3)")
    else:
        origins = k.array(rng.choice(["ray_origins", "origins", "ray_starts"]), "vec3", "input", -box - 1.0, -box - 0.5,
                          6, shape=(n_rays,))
        o = k.local(rng.choice(["o", "origin", "start"]))
    if rng.random() < DIRECTIONS_SHARE:  # directions given, into the box from its low corner
        dirs = k.array(rng.choice(["ray_dirs", "directions", "dirs"]), "vec3", "input", 0.25, 1.0, 6, shape=(n_rays,))
        aim = f"wp.normalize({dirs}[tid])"
    else:  # aimed at a point inside the box
        targets = k.array(rng.choice(["targets", "aim_points", "look_at"]), "vec3", "input", -0.5 * box, 0.5 * box, 6,
                          shape=(n_rays,))
        aim = f"wp.normalize({targets}[tid] - {o})"
    if origins:
        k.emit(f"{o} = {origins}[tid]")
    k.emit(f"{d} = {aim}")
    q, j = k.local(rng.choice(["query", "q"])), k.local(rng.choice(["j", "item", "index"]))
    k.emit(f"{q} = wp.bvh_query_ray({k.grid}, {o}, {d})")
    k.emit(f"{j} = int(0)")
    t_best, best = k.local(rng.choice(["t_min", "closest", "best_t"])), k.local(rng.choice(["hit", "nearest", "best"]))
    reach = 2.0 * math.sqrt(3.0) * (box + 1.0)  # from a corner off the box to its far side
    if rng.random() < MAX_T_SHARE:  # a ray length: hits beyond it do not count
        max_t = k.scalar(rng.choice(["max_t", "max_dist", "ray_length"]), round(reach * rng.choice((0.5, 0.75)) * 8) / 8)
        k.emit(f"{t_best} = {max_t}")
        k.features.append("rays of a given length")
    else:
        k.emit(f"{t_best} = float(1.0e6)")
    k.emit(f"{best} = int(-1)")
    r = k.r
    with k.block(f"while wp.bvh_query_next({q}, {j}):"):
        t = k.local("t")
        # an equally near hit goes to the lower index: the result does not depend on the order the BVH
        # yields the spheres in (Warp's tree and the .cu's differ)
        hit_test = f"if {t} > 0.0 and ({t} < {t_best} or ({t} == {t_best} and {j} < {best})):"
        if rng.random() < RAY_HELPER_SHARE:
            helper = k.unique(rng.choice(["ray_sphere", "intersect_sphere", "sphere_hit"]))
            k.helpers.append(f"@wp.func\ndef {helper}(o: wp.vec3, d: wp.vec3, center: wp.vec3, radius: float) -> float:\n"
                             "    m = o - center\n    b = wp.dot(m, d)\n    c = wp.dot(m, m) - radius * radius\n"
                             "    disc = b * b - c\n    if disc < 0.0:\n        return -1.0\n"
                             "    return -b - wp.sqrt(disc)")
            k.helper_names.append(helper)
            k.features.append("@wp.func ray-sphere test")
            k.emit(f"{t} = {helper}({o}, {d}, {k.x}[{j}], {r})")
            test = hit_test
        else:
            m, b, c = k.local("m"), k.local("b"), k.local("c")
            towards = rng.random() < 0.5  # m from the ray's start to the centre: t = b - sqrt(disc)
            k.emit(f"{m} = {k.x}[{j}] - {o}" if towards else f"{m} = {o} - {k.x}[{j}]")
            k.emit(f"{b} = wp.dot({m}, {d})")
            k.emit(f"{c} = wp.dot({m}, {m}) - {r} * {r}")
            disc = k.local(rng.choice(["disc", "discriminant"]))
            k.emit(f"{disc} = {b} * {b} - {c}")
            root = f"{b} - wp.sqrt({disc})" if towards else f"-{b} - wp.sqrt({disc})"
            if rng.random() < 0.5:
                with k.block(f"if {disc} < 0.0:"):
                    k.emit("continue")
                k.emit(f"{t} = {root}")
                test = hit_test
            else:
                k.emit(f"{t} = -1.0")  # no hit, as the helper form returns
                with k.block(f"if {disc} >= 0.0:"):
                    k.emit(f"{t} = {root}")
                test = hit_test
        with k.block(test):
            k.emit(f"{t_best} = {t}")
            k.emit(f"{best} = {j}")
    what = rng.choice(RAY_OUTPUTS)
    if what == "distance":
        hit_ids = k.array(rng.choice(["hit_index", "hit_particle", "picked"]), "int32", "output", bound=float(k.n),
                          shape=(n_rays,))
        dist = k.array(rng.choice(["hit_t", "hit_distance", "depth"]), "float32", "output", bound=reach,
                       shape=(n_rays,))
        with k.block(f"if {best} < 0:"):
            k.emit(f"{t_best} = -1.0")
        k.emit(f"{hit_ids}[tid] = {best}")
        k.emit(f"{dist}[tid] = {t_best}")
        summary = "Ray casting against particle spheres through a BVH: nearest hit and its distance"
    else:
        out = k.array(rng.choice(["normals", "hit_normal"]) if what == "normal" else rng.choice(["shade", "image", "intensity"]),
                      "vec3" if what == "normal" else "float32", "output", bound=1.0, shape=(n_rays,))
        with k.block(f"if {best} >= 0:"):
            hit_p = k.local(rng.choice(["p", "hit_point", "x_hit"]))
            k.emit(f"{hit_p} = {o} + {t_best} * {d}")
            normal = k.local(rng.choice(["n", "normal"]))
            k.emit(f"{normal} = wp.normalize({hit_p} - {k.x}[{best}])")
            if what == "normal":
                k.emit(f"{out}[tid] = {normal}")
            else:
                k.emit(f"{out}[tid] = wp.max(wp.dot({normal}, -{d}), 0.0)")
        summary = ("Ray casting against particle spheres through a BVH: the normal at the nearest hit" if what == "normal"
                   else "Ray casting against particle spheres through a BVH: a shade by the normal at the nearest hit")
    k.features.append("rays through a BVH of sphere boxes (wp.bvh_query_ray)")
    k.args[0] = ArgSpec(k.grid, "uint64", "bvh", (), value=k.radius, points=k.x)
    detail = feature_list([f"BVH over {k.n} boxes of half width {fmt_float(k.radius)}"] + k.features)
    return KernelSpec(k.name, "neighbors", f"{summary} (1-D launch {n_rays}; {detail})", k.source(), tuple(k.args),
                      (n_rays,), k.seed, tuple(k.helper_names))


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    k = NeighborKernel(rng, name, seed)
    k.n = rng.choice(POINT_COUNTS)
    k.radius = rng.choice(RADII)
    # a box whose mean neighbours per query (n * 4/3 pi r^3 / box volume) is about the target
    mean = rng.choice(NEIGHBOURS)
    volume = k.n * 4.0 / 3.0 * math.pi * k.radius ** 3 / mean
    k.crowd = 4 * mean + 16
    k.half_box = max(0.5, round(volume ** (1.0 / 3.0) / 2.0 * 4.0) / 4.0)
    form = rng.choice(FORMS)
    if form is not neighbor_list and rng.random() < BVH_SHARE:
        k.structure = "bvh"
        k.grid = rng.choice(BVH_NAMES)
    else:
        k.grid = rng.choice(GRID_NAMES)
    rays = k.structure == "bvh" and rng.random() < RAY_SHARE
    k.annotations.append(f"{k.grid}: wp.uint64")
    k.args.append(ArgSpec(k.grid, "uint64", k.structure))  # completed once the points are named
    k.x = k.array(rng.choice(POSITION_NAMES), "vec3", "input", -k.half_box, k.half_box, 6)
    radius_names = RAY_RADIUS_NAMES if rays else FORM_RADIUS_NAMES.get(form.__name__, RADIUS_NAMES)
    if rng.random() < RADIUS_CONSTANT_SHARE:
        k.r = k.unique(rng.choice(radius_names).upper())
        k.constants[k.r] = f"{k.r} = {rng.choice(['wp.constant({})', '{}']).format(fmt_float(k.radius))}"
        k.features.append("radius as a module constant")
    else:
        k.r = k.scalar(rng.choice(radius_names), k.radius)
    if rays:
        return ray_cast(k)
    k.emit("tid = wp.tid()")
    if k.structure == "bvh":
        k.bvh_half = 0.0 if rng.random() < POINT_BOX_SHARE else k.radius
        k.i = "tid"
    elif rng.random() < POINT_ID_SHARE:
        k.i = k.local("i")
        k.emit(f"{k.i} = wp.hash_grid_point_id({k.grid}, tid)")
        k.features.append("threads in cell order (hash_grid_point_id)")
    else:
        k.i = "tid"
    k.p = k.local(rng.choice(["p", "x_i", "pos_i", "xi"]))
    k.emit(f"{k.p} = {k.x}[{k.i}]")
    summary = form(k)
    if k.structure == "bvh":
        summary = summary.replace("hash-grid neighbours", "BVH neighbours").replace("a hash grid", "a BVH")
        k.args[0] = ArgSpec(k.grid, "uint64", "bvh", (), value=k.bvh_half, points=k.x)
        boxes = f"boxes of half width {fmt_float(k.bvh_half)}" if k.bvh_half else "zero-size boxes"
        detail = feature_list([f"BVH over {boxes} at the particles"] + k.features)
    else:
        # the grid's cells are the query radius (or its diameter) wide, on a grid of 16-64 per axis
        cell = k.radius * rng.choice([1.0, 1.0, 2.0])
        dims = rng.choice(GRID_DIMS)
        k.args[0] = ArgSpec(k.grid, "uint64", "hash_grid", (dims, dims, dims), value=cell, points=k.x)
        detail = feature_list([f"grid {dims}^3, cell {fmt_float(cell)}"] + k.features)
    description = f"{summary} (1-D launch {k.n}; {detail})"
    return KernelSpec(name, "neighbors", description, k.source(), tuple(k.args), (k.n,), seed,
                      tuple(k.helper_names))
