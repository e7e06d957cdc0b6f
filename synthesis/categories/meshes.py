"""Queries against a triangle mesh (`wp.Mesh`): distance fields, collisions, ray casts, inside tests.

Like Warp's mesh examples (cloth and particle collision, SDF sampling for marching cubes, the ray
caster): a `wp.uint64` argument is the id of a mesh built on the host (here the closed "rock" of
synthesis/mesh_geometry.py), and each thread queries it: the closest point
(`wp.mesh_query_point_no_sign`, or with an inside/outside sign from `wp.mesh_query_point`,
`wp.mesh_query_point_sign_winding_number` or `wp.mesh_query_point_sign_normal`) turned into a
position by `wp.mesh_eval_position`, or
the first hit along a ray (`wp.mesh_query_ray`).

What the kernels write never depends on which of two equally close faces a query reports: a
closest point on an edge belongs to both its triangles, and Warp and the standalone CUDA may pick
either (their BVHs differ). So outputs are positions, distances, signs off the surface, hit
distances and flags, never a face index or its barycentrics. Query points are drawn on a fine
2**-20 lattice and the mesh's cell widths are not dyadic, so no query lies exactly on the surface;
camera positions are off-axis, so no ray meets a vertex or an edge exactly.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from synthesis.categories.common import takes_variant
from synthesis.categories.neighbors import NeighborKernel
from synthesis.exprgen import feature_list, fmt_float
from synthesis.mesh_geometry import rock_extent, rock_triangle_count
from synthesis.spec import ArgSpec, KernelSpec

CELLS = (8, 10, 12, 16)
ROCK_SIZES = (0.8, 1.0, 1.2, 1.6)  # a rock's side before its bumps
QUERY_COUNTS = (256, 512, 1000, 1024, 2048, 4096)
SDF_RESOLUTIONS = (16, 20, 24, 32)
IMAGE_SIZES = ((64, 48), (64, 64), (96, 64), (128, 96), (128, 128))
QUERY_BITS = 20  # query coordinates on a 2**-20 lattice
MESH_NAMES = ("mesh", "mesh", "mesh_id", "collider", "geometry")
POSITION_NAMES = ("x", "pos", "positions", "points", "particle_x")
VELOCITY_NAMES = ("v", "vel", "velocities", "particle_v")
FORWARD_ONLY_SHARE = 0.5
HUGE_MAX_DIST_SHARE = 0.4  # `1.0e6` as the search radius, as most of Warp's examples write it
INDEXED_SHARE = 0.2  # points read through an index array
EARLY_RETURN_SHARE = 0.35  # `if not q.result: ... return` rather than an `if q.result:` block
HELPER_SHARE = 0.3  # the distance query wrapped in a @wp.func
FLAT_GRID_SHARE = 0.3  # a voxel grid launched flat (tid -> i, j, k) rather than 3-D
IN_PLACE_SHARE = 0.4  # positions (and velocities) updated in place
FRAMED_SHARE = 0.3  # the mesh posed by a wp.transform: points taken into its frame before the query
INLINE_EVAL_SHARE = 0.3  # wp.mesh_eval_position written inside the expression that uses it
MESH_LAST_SHARE = 0.3  # the mesh id after the arrays in the signature
# A closest point is determined only as well as distances are. Where two candidates lie within float
# rounding of the same distance d (a query far off a straight edge of the rock sees an almost flat
# minimum along it), the points may be sqrt(2 d dd) apart, dd about 2 ulps of d: 6.9e-4 d. Warp and
# the standalone CUDA may pick either (an H100 run picked points 2.6e-4 apart at d = 0.9). An output
# holding closest points gets a bound (the tolerance's scale: atol = 1e-4 x bound) of at least this
# many times the farthest distance a query reports, so its tolerance covers that spread.
CLOSEST_POINT_SPREAD = 7.0


def cell_width(rng: random.Random, side: float, cells: int) -> float:
    """A cell width near side / cells that is not dyadic: four decimals, the last digit odd and not 5
    (so no multiple of a quarter cell within 600 cells is a multiple of 2**-k)."""
    base = round(side / cells, 3)
    return round(base + rng.choice((1, 3, 7, 9)) * 1e-4, 4)


def off_lattice(rng: random.Random, value: float) -> float:
    """`value` on the 1/256 lattice, nudged by an odd multiple of 2**-12: a dyadic camera, light or
    pose, so that with the mesh's non-dyadic cell width no ray meets an edge or a vertex exactly
    (decimal nudges did: a camera at 0.0137 and a cell of 0.0913 put whole rows of rays on edges)."""
    return round(value * 256) / 256 + rng.choice((-1, 1)) * rng.choice((1, 3, 5, 7, 9, 11)) / 4096


def off_diagonal(rng: random.Random) -> tuple[float, float]:
    """A camera's x and y: off the lattice, and nudged by different amounts. With |x| == |y| every ray
    whose x and y slopes are equal (or opposite) lies in the plane x = y (or x = -y), which holds the
    diagonals that split the rock's faces into triangles: those rays meet an edge exactly, where Warp
    and the .cu may shade different faces (a host run found 42 such pixels in one image)."""
    while True:
        x, y = off_lattice(rng, 0.0), off_lattice(rng, 0.0)
        if abs(x) != abs(y):
            return x, y


def dyadic(value: float) -> float:
    """`value` rounded to 1/64: a distance written as a short literal, dyadic like the cameras."""
    return max(round(value * 64) / 64, 1 / 64)


@dataclass
class MeshKernel(NeighborKernel):
    """The neighbors category's kernel builder, with arrays of the launch's shape."""

    shape: tuple[int, ...] = ()
    mesh: str = "mesh"
    extent: float = 1.0  # half the side of the cube that holds the rock
    cell: float = 0.1  # the rock's cell width
    max_dist: str = "max_dist"
    max_dist_value: float = 1.0e6
    frame: str = ""  # the mesh's pose (a wp.transform argument) when points are taken into its frame
    world_point: str = ""  # the thread's point before it is taken into the mesh's frame
    element: str = "tid"  # the index the thread's point is read at (`pid` through an index array): its other inputs' too

    def array(self, hint: str, dtype: str, role: str, low: float = -1.0, high: float = 1.0, grid_bits: int = 10,
              bound: float = 1.0, shape: tuple[int, ...] | None = None) -> str:
        """An array of the launch's shape; role "counter": a one-element output (an atomic total)."""
        if role == "counter":
            return super().array(hint, dtype, "output", low, high, grid_bits, bound, (1,))
        return super().array(hint, dtype, role, low, high, grid_bits, bound, shape or self.shape)

    def vec3_scalar(self, hint: str, value: tuple[float, float, float]) -> str:
        name = self.unique(hint)
        self.args.append(ArgSpec(name, "vec3", "scalar", (), min(value), max(value), 0, value=tuple(value)))
        self.annotations.append(f"{name}: wp.vec3")
        return name

    def int_scalar(self, hint: str, value: int) -> str:
        name = self.unique(hint)
        self.args.append(ArgSpec(name, "int32", "scalar", (), value, value, 0, value=value))
        self.annotations.append(f"{name}: int")
        return name

    def positions(self, reach: float, role: str = "input", bound: float = 1.0) -> str:
        """Query points in the cube of half side `reach` around the rock."""
        return self.array(self.rng.choice(POSITION_NAMES), "vec3", role, -reach, reach, QUERY_BITS, bound)

    def point_of_thread(self, x: str, framed: bool = False) -> str:
        """`tid = wp.tid()` and the thread's point, read directly or through an index array (a
        subset or a reordering of the points); returns the point's local. `framed`: the mesh may
        sit in the world under a rigid transform (a body's pose), and the point is then taken into
        the mesh's frame, where distances are the same."""
        rng = self.rng
        self.emit("tid = wp.tid()")
        p = self.local(rng.choice(["p", "x_i", "point", "pos"]))
        self._read_point(x, p)
        self.world_point = p
        if framed and rng.random() < FRAMED_SHARE:
            self.frame = self.body_transform()
            local = self.local(rng.choice(["p_local", "x_local", "q_local", "local_p"]))
            inverse = f"wp.transform_inverse({self.frame})"
            if rng.random() < 0.5:
                inv = self.local(rng.choice(["inv", "x_inv", "to_local"]))
                self.emit(f"{inv} = {inverse}")
                inverse = inv
            self.emit(f"{local} = wp.transform_point({inverse}, {p})")
            self.features.append("query in the mesh's frame (wp.transform_point)")
            return local
        return p

    def ray(self, q: str, origin: str, direction: str, max_t: str, biased: bool = False) -> None:
        """`q = wp.mesh_query_ray(...)`: in the world, or (the mesh posed by a transform) with the
        ray taken into the mesh's frame, where hit distances are the same; `biased`: the ray may
        start a small step along its direction, as shadow rays from a surface do."""
        rng = self.rng
        if biased and rng.random() < 0.35:
            bias = self.knob(("ray_bias", "epsilon", "offset"), rng.choice((1.0e-3, 1.0e-4)), 0.5)
            start = self.local(rng.choice(["start", "ro", "origin_biased"]))
            self.emit(f"{start} = {origin} + {direction} * {bias}")
            origin = start
        if not self.frame and rng.random() < FRAMED_SHARE:
            self.frame = self.body_transform()
            inv = self.local(rng.choice(["inv", "x_inv", "to_local"]))
            self.emit(f"{inv} = wp.transform_inverse({self.frame})")
            lo, ld = self.local(rng.choice(["ro_local", "o_local"])), self.local(rng.choice(["rd_local", "d_local"]))
            self.emit(f"{lo} = wp.transform_point({inv}, {origin})")
            self.emit(f"{ld} = wp.transform_vector({inv}, {direction})")
            origin, direction = lo, ld
            self.features.append("ray in the mesh's frame (wp.transform_vector)")
        self.emit(f"{q} = wp.mesh_query_ray({self.mesh}, {origin}, {direction}, {max_t})")
        self.features.append("wp.mesh_query_ray")

    def body_transform(self) -> str:
        """A `wp.transform` argument: the mesh's pose (a translation and a unit quaternion)."""
        rng = self.rng
        axis = _unit((rng.choice((0.0, 0.3, 1.0)), 1.0, rng.choice((0.0, -0.5, 0.7))))
        angle = rng.choice((0.3, 0.6, 1.2, 2.0))
        quat = [a * math.sin(angle / 2) for a in axis] + [math.cos(angle / 2)]
        norm = math.sqrt(sum(c * c for c in quat))
        value = tuple(off_lattice(rng, 0.1 * rng.choice((-2, -1, 1, 2))) for _ in range(3)) + \
            tuple(round(c / norm, 6) for c in quat)
        name = self.unique(rng.choice(["xform", "body_pose", "mesh_xform", "X_wb"]))
        self.args.append(ArgSpec(name, "transform", "scalar", (), -2.0, 2.0, 0, value=value))
        self.annotations.append(f"{name}: wp.transform")
        return name

    def to_world(self, c: str) -> str:
        """A point of the mesh's frame in the world (itself when the mesh is not posed)."""
        return f"wp.transform_point({self.frame}, {c})" if self.frame else c

    def _read_point(self, x: str, p: str) -> None:
        rng = self.rng
        if rng.random() < INDEXED_SHARE:
            idx = self.unique(rng.choice(["indices", "point_ids", "active"]))
            self.args.append(ArgSpec(idx, "int32", "index", self.shape, 0, self.shape[0] - 1, 0))
            self.annotations.append(f"{idx}: {rng.choice(['wp.array(dtype=int)', 'wp.array(dtype=wp.int32)'])}")
            i = self.local(rng.choice(["i", "pid", "index"]))
            self.emit(f"{i} = {idx}[tid]")
            self.emit(f"{p} = {x}[{i}]")
            self.element = i
            self.features.append("points through an index array")
        else:
            self.emit(f"{p} = {x}[tid]")

    def distance_helper(self, signed: bool) -> str:
        """A `@wp.func` returning the (signed) distance to the surface, max_dist where none is found."""
        rng = self.rng
        call = rng.choice(["wp.mesh_query_point", "wp.mesh_query_point_sign_winding_number",
                           "wp.mesh_query_point_sign_normal"]) if signed \
            else "wp.mesh_query_point_no_sign"
        name = self.unique(rng.choice(["mesh_sdf", "signed_distance", "sdf"]) if signed
                           else rng.choice(["mesh_distance", "surface_distance", "udf"]))
        dist = "q.sign * wp.length(p - c)" if signed else "wp.length(p - c)"
        body = [f"q = {call}(mesh, p, max_dist)", "if q.result:",
                "    c = wp.mesh_eval_position(mesh, q.face, q.u, q.v)", f"    return {dist}", "return max_dist"]
        self.helpers.append(f"@wp.func\ndef {name}(mesh: wp.uint64, p: wp.vec3, max_dist: float) -> float:\n"
                            + "\n".join("    " + b for b in body))
        self.helper_names.append(name)
        self.features += [call, "@wp.func distance query"]
        return name

    def query_result(self, q: str, on_miss: list[str], on_hit) -> None:
        """Code for a query's hit (`on_hit()` emits it) and miss (`on_miss` lines): an `if
        q.result:` block with the miss first written as the default, or an early return."""
        if self.rng.random() < EARLY_RETURN_SHARE:
            with self.block(f"if not {q}.result:"):
                for line in on_miss:
                    self.emit(line)
                self.emit("return")
            self.features.append("early return on a miss")
            on_hit()
            return
        for line in on_miss:
            self.emit(line)
        with self.block(f"if {q}.result:"):
            on_hit()

    def store(self, q: str, target: str, miss: str, hit) -> None:
        """`target = <value>`: `hit()` emits what the hit needs and returns its value, `miss` the
        value written on a miss; as `query_result` writes it, or through a local set to the miss
        value and stored once."""
        rng = self.rng
        if rng.random() < 0.35:
            value = self.local(rng.choice(["value", "result", "out_value"]))
            self.emit(f"{value} = {miss}")
            with self.block(f"if {q}.result:"):
                self.emit(f"{value} = {hit()}")
            self.emit(f"{target} = {value}")
            return
        self.query_result(q, [f"{target} = {miss}"], lambda: self.emit(f"{target} = {hit()}"))

    def shaped(self, band: float, far: float, signed: bool) -> tuple[str, float, str, str]:
        """How a distance is written: raw, clamped to a narrow band, as a falloff weight, or scaled
        -> (template with {} for the distance, bound, what it is, the value written on a miss)."""
        rng = self.rng
        how = rng.choice(["raw", "raw", "band", "falloff", "scaled"])
        miss = self.max_dist if self.max_dist != "1.0e6" else "1.0e6"
        if how == "band":
            width = self.knob(("band", "band_width", "narrow_band"), band, 0.4)
            return f"wp.clamp({{}}, -{width}, {width})", band, "clamped to a narrow band", width
        if how == "falloff":
            scale = self.knob(("falloff", "decay", "length_scale"), band, 0.4)
            magnitude = "wp.abs({})" if signed else "{}"
            return f"wp.exp(-{magnitude} / {scale})", 1.0, "as an exponential falloff weight", "0.0"
        if how == "scaled":
            factor = rng.choice((2.0, 4.0, 8.0))
            inv = self.knob(("inv_cell", "scale", "inv_dx"), factor, 0.4)
            return f"{{}} * {inv}", far * factor, "scaled", f"{miss} * {inv}"
        return "{}", far, "", miss

    def search_radius(self, needed: float, misses: bool = True) -> None:
        """How far the closest-point queries look: 1.0e6 written in the call, or an argument large
        enough (`needed`) that every query finds the surface, or (`misses`) a smaller one that some
        queries miss."""
        rng = self.rng
        if rng.random() < HUGE_MAX_DIST_SHARE:
            self.max_dist, self.max_dist_value = "1.0e6", 1.0e6
            return
        value = round(needed * (rng.choice((0.25, 0.5, 1.0, 1.0)) if misses else 1.0), 2)
        self.max_dist_value = value
        self.max_dist = self.knob(("max_dist", "query_radius", "max_distance", "search_radius"), value)

    def closest(self, p: str, signed: bool) -> tuple[str, str]:
        """The query at `p` (signed: with an inside/outside sign) -> (query local, its call's kind)."""
        rng = self.rng
        if signed:
            call = rng.choice(["wp.mesh_query_point", "wp.mesh_query_point_sign_winding_number",
                               "wp.mesh_query_point_sign_normal"])
        else:
            call = rng.choice(["wp.mesh_query_point_no_sign", "wp.mesh_query_point_no_sign", "wp.mesh_query_point"])
        q = self.local(rng.choice(["query", "q", "hit"]))
        self.emit(f"{q} = {call}({self.mesh}, {p}, {self.max_dist})")
        self.features.append(call)
        return q, call

    def eval_position(self, q: str, inline_ok: bool = True) -> str:
        """The closest point of query `q`: a local, or (inline_ok) the call itself."""
        if inline_ok and self.rng.random() < INLINE_EVAL_SHARE:
            return f"wp.mesh_eval_position({self.mesh}, {q}.face, {q}.u, {q}.v)"
        c = self.local(self.rng.choice(["closest", "c", "surface_point", "cp"]))
        self.emit(f"{c} = wp.mesh_eval_position({self.mesh}, {q}.face, {q}.u, {q}.v)")
        return c

    def far(self) -> float:
        """A bound on any distance a query here can report."""
        return min(self.max_dist_value, 8.0 * self.extent)

    def closest_point_bound(self, reach: float) -> float:
        """The least bound of an output holding closest points of queries in the cube of half side
        `reach` (CLOSEST_POINT_SPREAD): the rock holds the cube of half side `inner` (its bumps only
        go outward), so a query outside that cube is at most its distance to it from the surface,
        and one inside it at most `inner` plus the bumps."""
        inner = self.extent - self.cell
        farthest = max(math.sqrt(3.0) * max(reach - inner, 0.0), self.extent)
        return CLOSEST_POINT_SPREAD * min(self.far(), farthest)


# ---- forms: each writes the kernel's body and returns its summary -------------------------------

def distance_to_mesh(k: MeshKernel) -> str:
    """Distance from each point to the surface (unsigned, or signed negative inside), written raw,
    clamped to a band, or as a falloff weight; with the closest point or the direction to it in
    some kernels."""
    rng = k.rng
    signed = rng.random() < 0.55
    reach = k.extent * rng.choice((1.25, 1.5, 2.0))
    x = k.positions(reach)
    k.search_radius(2.0 * reach)
    p = k.point_of_thread(x, framed=True)
    names = ["sdf", "phi", "signed_dist"] if signed else ["dist", "distance", "udf"]
    if rng.random() < HELPER_SHARE:
        helper = k.distance_helper(signed)
        template, bound, how, _ = k.shaped(round(0.1 * k.extent, 3), max(k.far(), 1.0), signed)
        d = k.local(rng.choice(["d", "dist", "phi_i"]))
        k.emit(f"{d} = {helper}({k.mesh}, {p}, {k.max_dist})")
        out = k.array(rng.choice(names), "float32", "output", bound=bound)
        k.emit(f"{out}[tid] = {template.format(d)}")
        return f"{'Signed' if signed else 'Unsigned'} distance from points to a mesh" + (f", {how}" if how else "")
    q, call = k.closest(p, signed)
    signed = call != "wp.mesh_query_point_no_sign"
    template, bound, how, miss_value = k.shaped(round(0.1 * k.extent, 3), max(k.far(), 1.0), signed)
    out = k.array(rng.choice(names), "float32", "output", bound=bound)
    # no direction (p - c) / |p - c| beside the distance: near the surface it is ill-conditioned (a
    # rounding of c turns it), and Warp and the .cu round c differently
    extra = rng.choice(["", "", "closest"]) if not k.frame else ""
    extra_out = ""
    if extra == "closest":
        extra_out = k.array(rng.choice(["closest_points", "surface_points", "cp_out"]), "vec3", "output",
                            bound=max(2.0 * reach, k.closest_point_bound(reach)))
    miss = [f"{out}[tid] = {miss_value}"]
    if extra:
        miss.append(f"{extra_out}[tid] = {p}")

    if not extra:
        def value() -> str:
            d = f"wp.length({p} - {k.eval_position(q)})"
            return template.format(f"{q}.sign * {d}" if signed else d)

        k.store(q, f"{out}[tid]", miss_value, value)
        return f"{'Signed' if signed else 'Unsigned'} distance from points to a mesh" + (f", {how}" if how else "")

    def hit() -> None:
        c = k.eval_position(q, inline_ok=False)
        d = k.local(rng.choice(["d", "dist", "len_d"]))
        k.emit(f"{d} = wp.length({p} - {c})")
        k.emit(f"{out}[tid] = {template.format(f'{q}.sign * {d}' if signed else d)}")
        k.emit(f"{extra_out}[tid] = {c}")

    k.query_result(q, miss, hit)
    what = f"{'Signed' if signed else 'Unsigned'} distance from points to a mesh and the closest points"
    return what + (f", {how}" if how else "")


# Variants of the commonest mesh kernels, each drawn from a stream of its own (common.takes_variant):
# a damped spring, masses binned by side, a point's flag beside the count of points inside, the number
# of triangles beside their mean normal, a radius per point, irradiance on a surface.


def project_to_surface(k: MeshKernel) -> str:
    """Each point moved onto the surface (or toward it by a fraction, or pulled by a spring force),
    unmoved where none is found; the mesh posed by a transform in some kernels (the query in its
    frame, the surface point brought back to the world)."""
    rng = k.rng
    reach = k.extent * rng.choice((1.25, 1.5, 2.0))
    x = k.positions(reach)
    k.search_radius(reach)
    p = k.point_of_thread(x, framed=True)
    world = k.world_point
    q, _ = k.closest(p, signed=False)
    how = rng.choice(["snap", "snap", "blend", "spring"])
    bound = reach + 1.0 if k.frame else reach
    spread = k.closest_point_bound(reach)
    if how == "spring":
        value = rng.choice((10.0, 100.0, 500.0))
        stiffness = k.knob(("stiffness", "k_attract", "ke"), value)
        out = k.array(rng.choice(["force", "f_attract", "forces"]), "vec3", "output",
                      bound=max(1000.0 * (bound + reach), value * spread))
        damped = takes_variant(k.seed, 0x5D1)  # a spring with a damper on the point's velocity, as cloth and particles use
        damping = ""
        if damped:
            vel = k.array(rng.choice(["vel", "v", "velocities"]), "vec3", "input", -1.0, 1.0, QUERY_BITS)
            kd = k.knob(("damping", "kd", "c_damp"), rng.choice((0.5, 1.0, 2.0)))
            damping = f" - {vel}[{k.element}] * {kd}"
            k.features.append("damped by the point's velocity")
        k.query_result(q, [f"{out}[tid] = wp.vec3(0.0)"],
                       lambda: k.emit(f"{out}[tid] = ({k.to_world(k.eval_position(q))} - {world}) * {stiffness}{damping}"))
        return ("Damped spring" if damped else "Spring") + " forces pulling points onto a mesh surface" + (
            " (a posed mesh)" if k.frame else "")
    out = k.array(rng.choice(["projected", "x_out", "surface_points", "snapped"]), "vec3", "output",
                  bound=max(bound, spread))
    alpha = k.knob(("alpha", "blend", "strength"), rng.choice((0.25, 0.5, 0.75))) if how == "blend" else ""

    def hit() -> str:
        c = k.to_world(k.eval_position(q))
        if alpha and k.frame:
            target = k.local(rng.choice(["target", "c_world", "on_surface"]))
            k.emit(f"{target} = {c}")
            c = target
        return f"{world} + ({c} - {world}) * {alpha}" if alpha else c

    k.store(q, f"{out}[tid]", world, hit)
    return "Points projected onto a mesh surface" + (" (a fraction of the way)" if alpha else "") + (
        " (a posed mesh)" if k.frame else "")


def collide_particles(k: MeshKernel) -> str:
    """Particles advanced by their velocity and pushed out of the mesh to a margin, along the
    direction from the closest point (signed so it points outward), in place or into new arrays;
    the velocity that the move implies in some kernels. (No velocity reflected off that direction:
    for a particle right at the surface the direction turns with the rounding of the closest point,
    and a reflected velocity is of the order of the velocity itself, so Warp's and the .cu's would
    differ past the tolerance; the position moves by the margin at most.)"""
    rng = k.rng
    reach = k.extent * rng.choice((1.25, 1.5))
    in_place = rng.random() < IN_PLACE_SHARE
    x = k.positions(reach, "inout" if in_place else "input", 2.0 * reach + 1.0)
    v = k.array(rng.choice(VELOCITY_NAMES), "vec3", "inout" if in_place and rng.random() < 0.6 else "input",
                -1.0, 1.0, 10, bound=(4.0 * reach + 2.0) / 0.005)
    v_in_place = in_place and next(a for a in k.args if a.name == v).role == "inout"
    dt = k.knob(("dt", "delta_t", "timestep"), rng.choice((0.005, 0.01, 0.02)), 0.2)
    # a thin margin (a particle radius, 0.2-1% of the rock): a particle right at the surface moves
    # by about the margin in a direction that the rounding of the closest point turns, so the
    # margin bounds how far Warp's and the .cu's positions can part
    margin_value = round(k.extent * rng.choice((0.002, 0.005, 0.01)), 4)
    margin = k.knob(("margin", "thickness", "radius", "contact_offset"), margin_value)
    k.search_radius(4.0 * reach)
    k.emit("tid = wp.tid()")
    x0 = k.local(rng.choice(["x0", "x_prev", "p0"]))
    k.emit(f"{x0} = {x}[tid]")
    xp = k.local(rng.choice(["xpred", "x_new", "p"]))
    k.emit(f"{xp} = {x0} + {v}[tid] * {dt}")
    q, call = k.closest(xp, signed=rng.random() < 0.75)
    signed = call != "wp.mesh_query_point_no_sign"

    def hit() -> None:
        c = k.eval_position(q)
        delta = k.local(rng.choice(["delta", "offset", "diff"]))
        k.emit(f"{delta} = {xp} - {c}")
        dist = k.local(rng.choice(["dist", "d", "sd"]))
        k.emit(f"{dist} = wp.length({delta}) * {q}.sign" if signed else f"{dist} = wp.length({delta})")
        err = k.local(rng.choice(["err", "penetration", "gap"]))
        k.emit(f"{err} = {dist} - {margin}")
        with k.block(f"if {err} < 0.0:"):
            n = k.local(rng.choice(["n", "normal", "push_dir"]))
            k.emit(f"{n} = wp.normalize({delta}) * {q}.sign" if signed else f"{n} = wp.normalize({delta})")
            k.emit(f"{xp} = {xp} - {n} * {err}")

    with k.block(f"if {q}.result:"):
        hit()
    out = x if in_place else k.array(rng.choice(["x_out", "x_new_out", "positions_out"]), "vec3", "output",
                                     bound=2.0 * reach + 1.0)
    k.emit(f"{out}[tid] = {xp}")
    if in_place:
        k.features.append("updated in place")
    if v_in_place or rng.random() < 0.6:
        vout = v if v_in_place else k.array(rng.choice(["v_out", "vel_out", "velocities_out"]), "vec3", "output",
                                            bound=(4.0 * reach + 2.0) / 0.005)
        k.emit(f"{vout}[tid] = ({xp} - {x0}) / {dt}")
        return "Particle-mesh collision: positions and velocities after pushing particles out of a mesh"
    return "Particle-mesh collision: particles pushed out of a mesh to a margin"


def _grid_sample(k: MeshKernel, span: float) -> tuple[str, str]:
    """The voxel's `i, j, k` (a 3-D launch, or a flat one) and the sample's position on the grid ->
    (p, how the voxel's output is indexed).
    Samples lie on a dyadic lattice (spacing and corner multiples of 2**-12): the mesh's coordinates,
    multiples of a non-dyadic cell width, then never equal a sample's, so no sample lies on a face
    and no axis ray of Warp's parity sign (mesh_query_point) runs along an edge."""
    rng = k.rng
    res = k.shape[0]
    spacing_value = round(2.0 * span / res * 1024) / 1024
    corner = -round(span * 256) / 256 - rng.choice((1, 3, 5, 7)) / 4096
    spacing = k.knob(("spacing", "dx", "voxel_size", "cell_size"), spacing_value, 0.2)
    origin = k.vec3_scalar(rng.choice(["origin", "lower", "grid_min"]), (corner, corner, corner))
    ijk = tuple(k.local(n) for n in rng.choice([("i", "j", "k"), ("x", "y", "z"), ("ix", "iy", "iz")]))
    if rng.random() < FLAT_GRID_SHARE:  # one thread per voxel of a flat array, x fastest
        k.shape = (res ** 3,)
        n = k.int_scalar(rng.choice(["res", "n", "dim"]), res) if rng.random() < 0.5 else str(res)
        k.emit("tid = wp.tid()")
        k.emit(f"{ijk[0]} = tid % {n}")
        k.emit(f"{ijk[1]} = (tid // {n}) % {n}")
        k.emit(f"{ijk[2]} = tid // ({n} * {n})" if n != str(res) else f"{ijk[2]} = tid // {res * res}")
        index = "tid"
        k.features.append("flat 1-D launch over the voxels")
    else:
        k.emit(f"{ijk[0]}, {ijk[1]}, {ijk[2]} = wp.tid()")
        index = ", ".join(ijk)
    p = k.local(rng.choice(["p", "pos", "sample"]))
    cell = f"wp.vec3(float({ijk[0]}), float({ijk[1]}), float({ijk[2]}))"
    k.emit(f"{p} = {origin} + {cell} * {spacing}" if rng.random() < 0.5 else f"{p} = {origin} + {spacing} * {cell}")
    return p, index


def sdf_grid(k: MeshKernel) -> str:
    """A signed (or unsigned) distance field sampled on a 3-D grid around the mesh (as marching
    cubes or an SDF collider needs), raw, banded or scaled."""
    rng = k.rng
    span = k.extent * rng.choice((1.2, 1.5))
    res = k.shape[0]  # before _grid_sample, which may flatten the launch to res**3 threads
    band = round(4.0 * span / res, 3)  # two voxels
    p, index = _grid_sample(k, span)
    k.search_radius(4.0 * span)
    signed = rng.random() < 0.75
    names = ["sdf", "field", "phi", "distance_field"]
    what = f"distance field of a mesh sampled on a {res}^3 grid"
    if rng.random() < HELPER_SHARE:
        helper = k.distance_helper(signed)
        template, bound, how, _ = k.shaped(band, max(k.far(), 1.0), signed)
        out = k.array(rng.choice(names), "float32", "output", bound=bound)
        k.emit(f"{out}[{index}] = {template.format(f'{helper}({k.mesh}, {p}, {k.max_dist})')}")
        return f"{'Signed' if signed else 'Unsigned'} {what}" + (f", {how}" if how else "")
    q, call = k.closest(p, signed=signed)
    signed = call != "wp.mesh_query_point_no_sign"
    template, bound, how, miss_value = k.shaped(band, max(k.far(), 1.0), signed)
    out = k.array(rng.choice(names), "float32", "output", bound=bound)

    def hit() -> str:
        d = f"wp.length({p} - {k.eval_position(q)})"
        return template.format(f"{q}.sign * {d}" if signed else d)

    k.store(q, f"{out}[{index}]", miss_value, hit)
    return f"{'Signed' if signed else 'Unsigned'} {what}" + (f", {how}" if how else "")


def sdf_gradient(k: MeshKernel) -> str:
    """The gradient of the distance field by central differences (the outward normal, unnormalised):
    six distance queries through a `@wp.func`, as SDF colliders and marching-cubes shading do."""
    rng = k.rng
    reach = k.extent * rng.choice((1.25, 1.5))
    grid = len(k.shape) == 3
    if grid:
        p, index = _grid_sample(k, reach)
    else:
        x = k.positions(reach)
        p = k.point_of_thread(x, framed=True)
        index = "tid"
    k.search_radius(4.0 * reach, misses=False)  # a miss on one side of a difference is no gradient
    helper = k.distance_helper(rng.random() < 0.6)
    # a step well above the distances' rounding (1e-7 of a unit), which the difference divides by 2h
    h = k.knob(("eps", "h", "fd_step"), rng.choice((0.005, 0.01, 0.02)), 0.5)
    axes = []
    for axis, unit in zip("xyz", ("wp.vec3({0}, 0.0, 0.0)", "wp.vec3(0.0, {0}, 0.0)", "wp.vec3(0.0, 0.0, {0})")):
        e = unit.format(h)
        name = k.local(f"d{axis}" if not {"dx", "dy", "dz"} & k.taken() else f"g{axis}")
        k.emit(f"{name} = {helper}({k.mesh}, {p} + {e}, {k.max_dist}) - {helper}({k.mesh}, {p} - {e}, {k.max_dist})")
        axes.append(name)
    g = k.local(rng.choice(["grad", "g", "gradient"]))
    # the gradient itself, not normalised: on the medial axis (points equally far from two faces)
    # it is short and its direction ill-conditioned, and normalising would amplify rounding there
    out = k.array(rng.choice(["grad_out", "sdf_grad", "gradient_out"]), "vec3", "output", bound=1.5)
    world = (lambda v: f"wp.transform_vector({k.frame}, {v})") if k.frame else (lambda v: v)
    if rng.random() < 0.5:
        k.emit(f"{g} = wp.vec3({', '.join(axes)}) / (2.0 * {h})")
        k.emit(f"{out}[{index}] = {world(g)}")
    else:
        k.emit(f"{g} = wp.vec3({', '.join(axes)})")
        k.emit(f"{out}[{index}] = {world(g)} * (0.5 / {h})")
    return "Mesh distance-field gradient by central differences" + (" on a grid" if grid else " at points")


def ambient_occlusion(k: MeshKernel) -> str:
    """Ambient occlusion at points: rays over a fan around the up axis or a spiral over the upper
    hemisphere, counted as hits or weighted by how near the hit is."""
    rng = k.rng
    reach = k.extent * rng.choice((1.5, 2.0))
    x = k.positions(reach)
    rays = rng.choice((8, 12, 16, 32))
    ray_count = k.int_scalar(rng.choice(["num_rays", "samples", "n_dirs"]), rays) if rng.random() < 0.5 else str(rays)
    max_t = k.knob(("ao_radius", "max_t", "occlusion_range"), round(k.extent * rng.choice((0.5, 1.0, 2.0)), 2), 0.4)
    p = k.point_of_thread(x)
    weighted = rng.random() < 0.4
    acc = k.local(rng.choice(["occ", "blocked", "ao_sum"]) if weighted else rng.choice(["hits", "occluded", "blocked"]))
    k.emit(f"{acc} = float(0.0)" if weighted else f"{acc} = int(0)")
    s = k.local(rng.choice(["s", "k", "r"]))
    spiral = rng.random() < 0.5
    with k.block(f"for {s} in range({ray_count}):"):
        d = k.local(rng.choice(["d", "ray_dir", "w"]))
        if spiral:  # points of a Fibonacci spiral over the upper hemisphere
            y = k.local(rng.choice(["y", "cos_theta", "h"]))
            k.emit(f"{y} = 1.0 - (float({s}) + 0.5) / float({ray_count})")
            radius = k.local(rng.choice(["ring", "rad", "sin_theta"]))
            k.emit(f"{radius} = wp.sqrt(1.0 - {y} * {y})")
            angle = k.local(rng.choice(["phi", "angle"]))
            k.emit(f"{angle} = 2.3999632 * float({s})")
            k.emit(f"{d} = wp.vec3({radius} * wp.cos({angle}), {y}, {radius} * wp.sin({angle}))")
        else:
            angle = k.local(rng.choice(["angle", "phi", "theta"]))
            k.emit(f"{angle} = 6.2831853 * float({s}) / float({ray_count})")
            lift = rng.choice(("0.5", "0.25", "1.0"))
            k.emit(f"{d} = wp.normalize(wp.vec3(wp.cos({angle}), {lift}, wp.sin({angle})))")
        q = k.local(rng.choice(["query", "hit", "q"]))
        k.ray(q, p, d, max_t, biased=True)
        with k.block(f"if {q}.result:"):
            k.emit(f"{acc} += 1.0 - {q}.t / {max_t}" if weighted else f"{acc} += 1")
    k.features.append("wp.mesh_query_ray in a loop")
    out = k.array(rng.choice(["ao", "occlusion", "visibility", "ambient"]), "float32", "output", bound=1.0)
    share = f"{acc} / float({ray_count})" if weighted else f"float({acc}) / float({ray_count})"
    k.emit(f"{out}[tid] = 1.0 - {share}" if rng.random() < 0.6 else f"{out}[tid] = {share}")
    return (f"Ambient occlusion from {rays} rays ({'a hemisphere spiral' if spiral else 'a fan'}) against a mesh"
            + (", weighted by hit distance" if weighted else ""))


def raycast_image(k: MeshKernel) -> str:
    """A pinhole camera casting one ray per pixel: depth, a hit mask, or shading by the hit's face
    normal."""
    rng = k.rng
    width, height = k.shape
    distance = dyadic(k.extent * rng.choice((2.5, 3.0, 4.0)))
    cam = k.vec3_scalar(rng.choice(["cam_pos", "camera", "eye", "origin"]), (*off_diagonal(rng), distance))
    max_t = k.knob(("max_t", "far", "t_max"), round(distance * 3.0, 2), 0.3) if rng.random() < 0.6 else "1.0e6"
    focal = rng.choice(("1.0", "1.5", "2.0"))
    ix, iy = (k.local(n) for n in ("x", "y"))
    if rng.random() < 0.5:
        k.emit(f"{ix}, {iy} = wp.tid()")
        index = f"{ix}, {iy}"
    else:
        # a 1-D launch over pixels, width given as an argument
        k.shape = (width * height,)
        w = k.int_scalar(rng.choice(["width", "image_width", "w"]), width)
        k.emit("tid = wp.tid()")
        k.emit(f"{ix} = tid % {w}")
        k.emit(f"{iy} = tid // {w}")
        index = "tid"
    sx, sy = k.local("sx"), k.local("sy")
    # pixel centres (x + 0.5) from the image's centre, in units of half the image height
    centre_x, centre_y, half_h = fmt_float(width / 2 - 0.5), fmt_float(height / 2 - 0.5), fmt_float(height / 2)
    k.emit(f"{sx} = (float({ix}) - {centre_x}) / {half_h}")
    k.emit(f"{sy} = (float({iy}) - {centre_y}) / {half_h}" if rng.random() < 0.5
           else f"{sy} = ({centre_y} - float({iy})) / {half_h}")
    rd = k.local(rng.choice(["rd", "ray_dir", "view_dir"]))
    k.emit(f"{rd} = wp.normalize(wp.vec3({sx}, {sy}, -{focal}))")
    q = k.local(rng.choice(["query", "hit", "q"]))
    k.ray(q, cam, rd, max_t)
    what = rng.choice(["depth", "mask", "normal", "shade"])
    if what == "depth":
        out = k.array(rng.choice(["depth", "depth_image", "z_buffer"]), "float32", "output", bound=distance * 3.0)
        k.store(q, f"{out}[{index}]", "0.0", lambda: f"{q}.t")
        k.keep_size(out)  # the camera's pixel grid is written into the code: timed at its own size
        return "Ray-cast depth image of a mesh"
    if what == "mask":
        out = k.array(rng.choice(["mask", "hit_mask", "coverage"]), "int32", "output", 0, 1, 0)
        with k.block(f"if {q}.result:"):
            k.emit(f"{out}[{index}] = 1")
        with k.block("else:"):
            k.emit(f"{out}[{index}] = 0")
        k.keep_size(out)
        return "Ray-cast coverage mask of a mesh"
    color = k.local(rng.choice(["color", "c", "rgb"]))
    k.emit(f"{color} = wp.vec3(0.0)" if rng.random() < 0.5 else f"{color} = wp.vec3(0.0, 0.0, 0.0)")
    with k.block(f"if {q}.result:"):
        if what == "normal":
            n = f"{q}.normal" if rng.random() < 0.5 else f"wp.mesh_eval_face_normal({k.mesh}, {q}.face)"
            k.emit(f"{color} = {n} * 0.5 + wp.vec3(0.5, 0.5, 0.5)")
        else:
            light = k.vec3_scalar(rng.choice(["light_dir", "sun", "light"]),
                                  tuple(round(c, 4) for c in _unit((0.3, 0.8, 0.52))))
            n = k.local(rng.choice(["n", "normal"]))
            k.emit(f"{n} = wp.mesh_eval_face_normal({k.mesh}, {q}.face)" if rng.random() < 0.5
                   else f"{n} = {q}.normal")
            lambert = k.local(rng.choice(["ndotl", "diffuse", "lambert"]))
            k.emit(f"{lambert} = wp.max(wp.dot({n}, {light}), 0.0)")
            k.emit(f"{color} = wp.vec3({lambert}, {lambert}, {lambert}) * 0.8 + wp.vec3(0.1, 0.1, 0.1)")
    out = k.array(rng.choice(["pixels", "image", "color_out"]), "vec3", "output", bound=2.0)
    k.emit(f"{out}[{index}] = {color}")
    k.keep_size(out)
    return "Ray-cast image of a mesh shaded by " + ("its face normals" if what == "normal" else "a directional light")


def _unit(v: tuple[float, float, float]) -> tuple[float, float, float]:
    n = math.sqrt(sum(c * c for c in v))
    return tuple(c / n for c in v)


def occlusion(k: MeshKernel) -> str:
    """Shadow rays: whether the segment from each point to a light (or the ray toward a distant
    light) is blocked by the mesh; written as visibility, the blocker's distance, or the light's
    irradiance (inverse square) where it is not blocked."""
    rng = k.rng
    reach = k.extent * rng.choice((1.5, 2.0, 2.5))
    x = k.positions(reach)
    directional = rng.random() < 0.35
    if directional:
        light = k.vec3_scalar(rng.choice(["light_dir", "sun_dir", "to_sun"]),
                              tuple(round(c, 4) for c in _unit((off_lattice(rng, 0.3), 0.9, off_lattice(rng, 0.2)))))
    else:
        light = k.vec3_scalar(rng.choice(["light_pos", "light", "emitter"]),
                              (off_lattice(rng, 0.0), dyadic(reach * 3.0), off_lattice(rng, 0.0)))
    p = k.point_of_thread(x)
    q = k.local(rng.choice(["query", "hit", "q"]))
    if directional:
        k.ray(q, p, light, "1.0e6", biased=True)
        dist = ""
    else:
        to_light = k.local(rng.choice(["to_light", "l", "d"]))
        k.emit(f"{to_light} = {light} - {p}")
        dist = k.local(rng.choice(["dist", "light_dist", "t_max"]))
        k.emit(f"{dist} = wp.length({to_light})")
        direction = f"{to_light} / {dist}"
        if rng.random() < 0.4:
            direction = k.local(rng.choice(["dir", "l_hat", "wi"]))
            k.emit(f"{direction} = {to_light} / {dist}")
        k.ray(q, p, direction, dist, biased=True)
    what = rng.choice(["visibility", "visibility", "blocker", "irradiance"] if dist else ["visibility", "blocker"])
    if what == "visibility":
        as_int = rng.random() < 0.4
        out = k.array(rng.choice(["visible", "lit", "in_light"]), "int32" if as_int else "float32", "output", 0, 1, 0)
        one, zero = ("1", "0") if as_int else ("1.0", "0.0")
        if rng.random() < 0.5:
            k.emit(f"{out}[tid] = {one}")
            with k.block(f"if {q}.result:"):
                k.emit(f"{out}[tid] = {zero}")
        else:
            with k.block(f"if not {q}.result:"):
                k.emit(f"{out}[tid] = {one}")
        return "Shadow rays: visibility of a " + ("distant light" if directional else "point light") + " around a mesh"
    if what == "blocker":
        out = k.array(rng.choice(["hit_t", "blocker_distance", "t_hit"]), "float32", "output", bound=6.0 * reach)
        k.store(q, f"{out}[tid]", "-1.0", lambda: f"{q}.t")
        return "Shadow rays: distance to the first blocker toward a " + ("distant" if directional else "point") + " light"
    intensity = k.knob(("intensity", "power", "light_power"), rng.choice((1.0, 10.0, 50.0)))
    out = k.array(rng.choice(["irradiance", "light_in", "e_in"]), "float32", "output", bound=100.0)
    if takes_variant(k.seed, 0x1AB):  # on a surface: Lambert's cosine between the point's normal and the light
        normals = k.array(rng.choice(["normals", "surface_n", "n_in"]), "vec3", "input", -1.0, 1.0, QUERY_BITS)
        cos_t = k.local(rng.choice(["cos_theta", "n_dot_l", "cos_i"]))
        k.emit(f"{cos_t} = wp.max(wp.dot(wp.normalize({normals}[{k.element}]), {to_light}) / {dist}, 0.0)")
        with k.block(f"if not {q}.result:"):
            k.emit(f"{out}[tid] = {intensity} * {cos_t} / ({dist} * {dist})")
        return "Shadow rays: irradiance on a surface (Lambert's cosine, inverse square) from a point light where " \
               "the mesh does not block it"
    with k.block(f"if not {q}.result:"):
        k.emit(f"{out}[tid] = {intensity} / ({dist} * {dist})")
    return "Shadow rays: inverse-square irradiance from a point light where the mesh does not block it"


def inside_test(k: MeshKernel) -> str:
    """Inside/outside classification by the query's sign: a flag per point, a count of the points
    inside (Monte Carlo volume), or counts inside and outside in two bins."""
    rng = k.rng
    reach = k.extent * rng.choice((1.0, 1.25, 1.5))
    x = k.positions(reach)
    k.max_dist, k.max_dist_value = "1.0e6", 1.0e6
    p = k.point_of_thread(x, framed=True)
    q, _ = k.closest(p, signed=True)
    how = rng.choice(["count", "volume", "bins", "flag", "flag"])
    if how == "count":
        counter = k.array(rng.choice(["inside_count", "count", "num_inside"]), "int32", "counter", bound=k.shape[0])
        cond = f"{q}.result and {q}.sign < 0.0" if rng.random() < 0.5 else f"{q}.sign < 0.0"
        flagged = takes_variant(k.seed, 0x1F1)  # each point's flag too, as a compaction's first pass keeps it
        flag = k.array(rng.choice(["inside", "is_inside", "flags"]), "int32", "output", 0, 1, 0) if flagged else ""
        with k.block(f"if {cond}:"):
            if flagged:
                k.emit(f"{flag}[tid] = 1")
            k.emit(f"wp.atomic_add({counter}, 0, 1)")
        if flagged:
            return "Count of points inside a closed mesh (atomic counter), and each point's flag"
        return "Count of points inside a closed mesh (atomic counter)"
    if how == "volume":
        # a dyadic share per sample: the float sum is exact in any order
        share = rng.choice((1.0 / 1024, 1.0 / 4096, 1.0 / 256))
        weight = k.knob(("sample_volume", "dv", "weight"), share)
        volume = k.array(rng.choice(["volume", "inside_volume", "vol"]), "float32", "counter", bound=k.shape[0] * share)
        with k.block(f"if {q}.sign < 0.0:"):
            k.emit(f"wp.atomic_add({volume}, 0, {weight})")
        return "Monte Carlo volume of a closed mesh (atomic sum of sample volumes)"
    if how == "bins":
        bins = k.unique(rng.choice(["counts", "histogram", "bins"]))
        k.args.append(ArgSpec(bins, "int32", "output", (2,), bound=float(k.shape[0])))
        k.annotations.append(f"{bins}: wp.array(dtype=int)")
        b = k.local(rng.choice(["b", "slot", "side"]))
        k.emit(f"{b} = int(0)")
        with k.block(f"if {q}.sign < 0.0:"):
            k.emit(f"{b} = 1")
        if takes_variant(k.seed, 0xB15):  # each point's mass binned by side (dyadic masses: the sums are exact in any order)
            mass = k.array(rng.choice(["mass", "m", "point_mass"]), "float32", "input", 0.25, 2.0, 4)
            totals = k.unique(rng.choice(["mass_by_side", "side_mass", "binned_mass"]), "output")
            k.args.append(ArgSpec(totals, "float32", "output", (2,), bound=2.0 * k.shape[0]))
            k.annotations.append(f"{totals}: wp.array(dtype=float)")
            k.emit(f"wp.atomic_add({bins}, {b}, 1)")
            k.emit(f"wp.atomic_add({totals}, {b}, {mass}[{k.element}])")
            return "Counts and masses of points outside and inside a closed mesh (two atomic bins each)"
        k.emit(f"wp.atomic_add({bins}, {b}, 1)")
        return "Counts of points outside and inside a closed mesh (two atomic bins)"
    style = rng.choice(["nested", "and", "early", "sign", "where"])
    if style == "where":  # the flag as a selected value (the search radius is huge: every query finds the surface)
        out = k.array(rng.choice(["inside", "is_inside", "flags"]), "int32", "output", 0, 1, 0)
        k.emit(f"{out}[tid] = wp.where({q}.sign < 0.0, 1, 0)")
        return "Inside/outside flags of points against a closed mesh"
    if style == "sign":
        out = k.array(rng.choice(["side", "sign_out", "inside_sign"]), "float32", "output", -1, 1, 0)
        k.store(q, f"{out}[tid]", "1.0", lambda: f"{q}.sign")
        return "Inside/outside signs (-1 inside, 1 outside) of points against a closed mesh"
    out = k.array(rng.choice(["inside", "is_inside", "flags"]), "int32", "output", 0, 1, 0)
    if style == "early":
        with k.block(f"if not {q}.result:"):
            k.emit("return")
        with k.block(f"if {q}.sign < 0.0:"):
            k.emit(f"{out}[tid] = 1")
    elif style == "and":
        with k.block(f"if {q}.result and {q}.sign < 0.0:"):
            k.emit(f"{out}[tid] = 1")
        with k.block("else:"):
            k.emit(f"{out}[tid] = 0")
    else:
        k.emit(f"{out}[tid] = 0")
        with k.block(f"if {q}.result:"):
            with k.block(f"if {q}.sign < 0.0:"):
                k.emit(f"{out}[tid] = 1")
    return "Inside/outside flags of points against a closed mesh"


def nearby_faces(k: MeshKernel) -> str:
    """A broad phase against the surface, as cloth and particle collision code runs one: the triangles
    whose bounds overlap a box around each point (`wp.mesh_query_aabb`, walked by `while
    wp.mesh_query_aabb_next(query, face):`), counted, or narrowed by their centres: the distance to the
    nearest centre among them, or the mean of their normals (a surface direction near the point)."""
    rng = k.rng
    what = rng.choice(["count", "count", "nearest_centre", "mean_normal"])
    reach = k.extent * rng.choice((1.1, 1.25, 1.5))
    x = k.positions(reach)
    # a count or a distance is the same in the mesh's frame: the query may be made there
    p = k.point_of_thread(x, framed=what != "mean_normal")
    if takes_variant(k.seed, 0xAAB):  # each point's own radius (particles of several sizes) plus a contact margin
        margin = k.knob(("margin", "contact_margin", "skin"), dyadic(rng.choice((0.02, 0.03, 0.04)) * k.extent))
        radius_value = dyadic(0.12 * k.extent)
        radii = k.array(rng.choice(["radii", "particle_radius", "point_radius"]), "float32", "input",
                        0.25 * radius_value, radius_value, 10)
        r = k.local(rng.choice(["r", "r_i", "reach"]))
        k.emit(f"{r} = {radii}[{k.element}] + {margin}")
        k.features.append("a radius per point")
    else:
        r = k.knob(("radius", "contact_radius", "margin", "half_width"), dyadic(rng.choice((0.08, 0.12, 0.16)) * k.extent))
    extent = f"wp.vec3({r})"
    if rng.random() < 0.4:
        lower, upper = (k.local(n) for n in rng.choice([("lower", "upper"), ("box_lower", "box_upper"), ("lo", "hi")]))
        k.emit(f"{lower} = {p} - {extent}")
        k.emit(f"{upper} = {p} + {extent}")
    else:
        lower, upper = f"{p} - {extent}", f"{p} + {extent}"
    q, face = k.local(rng.choice(["query", "q", "candidates"])), k.local(rng.choice(["face", "tri", "f"]))
    k.emit(f"{q} = wp.mesh_query_aabb({k.mesh}, {lower}, {upper})")
    k.emit(f"{face} = int(0)")
    count = k.local(rng.choice(["count", "n", "num_faces"]))
    k.emit(f"{count} = int(0)")
    k.features += ["wp.mesh_query_aabb", "while wp.mesh_query_aabb_next"]
    if what == "count":
        how = rng.choice(["all", "capped", "facing"])
        with k.block(f"while wp.mesh_query_aabb_next({q}, {face}):"):
            if how == "facing":  # only triangles whose front faces the point (a one-sided collider)
                c = k.local(rng.choice(["centre", "c", "centroid"]))
                k.emit(f"{c} = wp.mesh_eval_position({k.mesh}, {face}, 1.0 / 3.0, 1.0 / 3.0)")
                with k.block(f"if wp.dot(wp.mesh_eval_face_normal({k.mesh}, {face}), {p} - {c}) > 0.0:"):
                    k.emit(f"{count} += 1")
            else:
                k.emit(f"{count} += 1")
            if how == "capped":  # as many as a contact list holds: the same whichever the BVH finds first
                cap = k.int_scalar(rng.choice(["max_contacts", "max_faces", "capacity"]), rng.choice((4, 8, 16)))
                with k.block(f"if {count} == {cap}:"):
                    k.emit("break")
        out = k.array(rng.choice(["face_count", "num_candidates", "counts"]), "int32", "output",
                      bound=float(rock_triangle_count(k.args[0].shape[0])))
        k.emit(f"{out}[tid] = {count}")
        detail = {"all": "", "capped": " (at most a capacity)", "facing": " facing them"}[how]
        return f"Triangles near each point{detail}, from a box query of the mesh's BVH"
    if what == "nearest_centre":
        best = k.local(rng.choice(["best", "nearest", "d_min"]))
        far = dyadic(4.0 * k.extent)
        k.emit(f"{best} = float({fmt_float(far)})")
        with k.block(f"while wp.mesh_query_aabb_next({q}, {face}):"):
            c = k.local(rng.choice(["centre", "c", "centroid"]))
            k.emit(f"{c} = wp.mesh_eval_position({k.mesh}, {face}, 1.0 / 3.0, 1.0 / 3.0)")
            k.emit(f"{best} = wp.min({best}, wp.length({p} - {c}))")
        out = k.array(rng.choice(["nearest_centre", "centre_distance", "proximity"]), "float32", "output", bound=far)
        k.emit(f"{out}[tid] = {best}")
        k.features.append("triangle centres (wp.mesh_eval_position at 1/3, 1/3)")
        return "Distance to the nearest triangle centre among the triangles near each point (a box query)"
    total = k.local(rng.choice(["n_sum", "normal_sum", "acc"]))
    k.emit(f"{total} = wp.vec3(0.0)")
    how = rng.choice(["unit", "mean", "weighted"])
    with k.block(f"while wp.mesh_query_aabb_next({q}, {face}):"):
        normal = f"wp.mesh_eval_face_normal({k.mesh}, {face})"
        if how == "weighted":  # nearer triangles count more: inverse distance to the centre, softened by r
            c = k.local(rng.choice(["centre", "c", "centroid"]))
            k.emit(f"{c} = wp.mesh_eval_position({k.mesh}, {face}, 1.0 / 3.0, 1.0 / 3.0)")
            w = k.local(rng.choice(["w", "weight"]))
            k.emit(f"{w} = 1.0 / ({r} + wp.length({p} - {c}))")
            k.emit(f"{total} += {w} * {normal}")
        else:
            k.emit(f"{total} += {normal}")
        k.emit(f"{count} += 1")
    out = k.array(rng.choice(["surface_dir", "mean_normal", "normals"]), "vec3", "output", bound=1.0)
    if takes_variant(k.seed, 0xFC7):  # how many triangles each direction came from (0: no surface near the point)
        faces = k.array(rng.choice(["face_count", "num_faces_out", "support"]), "int32", "output",
                        bound=float(rock_triangle_count(k.args[0].shape[0])))
        k.emit(f"{faces}[tid] = {count}")
        k.features.append("the triangles' count stored")
    if how == "mean":
        with k.block(f"if {count} > 0:"):
            k.emit(f"{out}[tid] = {total} / float({count})")
        k.features.append("face normals averaged (wp.mesh_eval_face_normal)")
        return "Mean of the normals of the triangles near each point (a box query)"
    with k.block(f"if {count} > 0:"):
        k.emit(f"{out}[tid] = wp.normalize({total})")
    if how == "weighted":
        k.features.append("face normals weighted by inverse distance (wp.mesh_eval_face_normal)")
        return "Distance-weighted normal of the triangles near each point (a box query)"
    k.features.append("face normals summed (wp.mesh_eval_face_normal)")
    return "Mean normal of the triangles near each point (a box query)"


FORMS = (distance_to_mesh, project_to_surface, collide_particles, sdf_grid, sdf_gradient, raycast_image,
         occlusion, inside_test, ambient_occlusion, nearby_faces)


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    k = MeshKernel(rng, name, seed)
    form = rng.choice(FORMS)
    cells = rng.choice(CELLS)
    width = cell_width(rng, rng.choice(ROCK_SIZES), cells)
    k.extent = rock_extent(cells, width)
    k.cell = width
    k.mesh = rng.choice(MESH_NAMES)
    k.annotations.append(f"{k.mesh}: wp.uint64")
    k.args.append(ArgSpec(k.mesh, "uint64", "mesh", (cells,), value=width))
    if form is sdf_grid or form is sdf_gradient and rng.random() < 0.4:
        k.shape = (rng.choice(SDF_RESOLUTIONS),) * 3
    elif form is raycast_image:
        k.shape = rng.choice(IMAGE_SIZES)
    else:
        k.shape = (rng.choice(QUERY_COUNTS),)
    summary = form(k)
    if rng.random() < MESH_LAST_SHARE:  # the id after the arrays, as some of Warp's examples order them
        k.args.append(k.args.pop(0))
        k.annotations.append(k.annotations.pop(0))
    launch = " x ".join(str(s) for s in k.shape)
    detail = feature_list([f"rock mesh of {rock_triangle_count(cells)} triangles, cell {fmt_float(width)}"] + k.features)
    description = f"{summary} ({len(k.shape)}-D launch {launch}; {detail})"
    return KernelSpec(name, "meshes", description, k.source(), tuple(k.args), k.shape, seed, tuple(k.helper_names))
