"""Vector: the vector geometry kernels people write, one table entry per computation (VECTOR_FORMS).

A kernel holds one computation with a name, on vec2/vec3/vec4 arrays: a velocity bounced off a surface
(reflection with restitution), a vector split into its normal and tangential parts (with friction),
Lambert and Blinn-Phong shading against a directional or point light passed by value, a mesh
triangle's normal and area through index arrays, the distance to a capsule (a point-segment
distance), the angle between two vectors (the atan2 form, robust near 0 and pi), a tangent frame
(Gram-Schmidt or cross products, glTF handedness, a TBN matrix, normal mapping), a vector's length
limited (a speed cap), colours composited (premultiplied "over", multiply, screen, interpolation,
luminance), and particles kept inside a box one component at a time (walls with restitution, a
ground plane with friction, a periodic box: `p[k] = hi`, `v[k] *= -e`).
Where the thread's element comes from (its own, a padded launch, an active set, a 2-D grid) and whether
the computation is a `@wp.func` are drawn around it (`synthesis/categories/site.py`).

Numerics: nothing branches on a rounded value (caps and clamps are `wp.min` / `wp.clamp`, continuous);
a length is divided by only where it is bounded away from zero (a by-value segment of non-zero length,
a guard `wp.max(len, eps)`), and an angle is taken with atan2, whose rounding error stays small at
every angle (acos of a rounded cosine does not, near 0 and pi).
"""
from __future__ import annotations

import math
import random

from synthesis.categories.rich import RichKernelWriter, grid_value
from synthesis.categories.site import ACCESSES, PER_ELEMENT, Core, Form, Site, launch
from synthesis.spec import KernelSpec

FUNC_SHARE = 0.4  # kernels whose computation is a @wp.func


def _width(dtype: str) -> int:
    return int(dtype[-1])


def _integrate(site: Site, velocity: str, vtype: str) -> None:
    """Now and then the new velocity also moves the element: x + dt v, written beside it."""
    if site.w.rng.random() < 0.35:
        x = site.input(("pos", "x", "positions"), vtype, -4.0, 4.0)
        dt = site.w.add_scalar(site.w.rng.choice(["dt", "time_step"]), "float32", site.w.rng.choice([0.01, 0.005, 0.02]))
        site.store(("pos_out", "x_new", "positions_out"), vtype, f"{x} + {dt.src} * {velocity}", 5.0)
        site.w.feature("position integrated")


def bounce(site: Site, as_func: bool) -> None:
    """A velocity bounced off a surface: the approaching normal part reversed and scaled by a
    restitution coefficient, v - (1 + e) min(v.n, 0) n (a receding velocity is left as it is)."""
    w = site.w
    vtype = w.rng.choice(["vec2", "vec3", "vec3"])
    # the velocities updated where they are, as a solver step does (not through an active set, whose
    # index array may name an element twice: two threads would update it at once)
    in_place = site.index is None and w.rng.random() < 0.3
    if in_place:
        vel_array, v_in = site.inout(("vel", "velocities", "particle_v"), vtype, -2.0, 2.0)
    else:
        v_in = site.input(("vel", "velocities", "v_in"), vtype, -2.0, 2.0)
    n_in = site.input(("normals", "surface_n", "contact_normal"), vtype)
    core = Core(site, w.rng.choice(["bounce", "reflect_velocity"]), as_func)
    v = core.param("v", vtype, v_in)
    n = core.let("n", f"wp.normalize({core.param('normal', vtype, n_in)})")
    branch = w.rng.random() < 0.35  # only an approaching velocity changed, said with a branch
    vn = core.let("vn", f"wp.dot({v}, {n})" if branch else f"wp.min(wp.dot({v}, {n}), 0.0)")
    if w.rng.random() < 0.5:
        e = core.param("restitution", "float32", site.knob(("restitution", "e"), (0.25, 0.5, 0.75)))
        factor = repr(1.0 + float(e)) if e[0].isdigit() else f"(1.0 + {e})"  # a literal one folded
        w.feature("reflection with restitution")
    else:
        factor = "2.0"
        w.feature("mirror reflection")
    if branch:
        out_v = core.let("v_out", v)
        with core.block(f"if {vn} < 0.0:"):
            core.emit(f"{out_v} = {v} - {factor} * {vn} * {n}")
        new_v = core.result(out_v, vtype)
        w.feature("approaching velocities only (branch)")
    else:
        new_v = core.result(f"{v} - {factor} * {vn} * {n}", vtype)
    bound = 2.0 + 4.0 * math.sqrt(_width(vtype))
    if in_place:
        site.store_to(vel_array, new_v, bound)
        w.feature("velocity updated in place")
    elif w.rng.random() < 0.35:
        new_v = site.local("v_new", new_v)
        site.store(("vel_out", "reflected", "v_after"), vtype, new_v, bound)
        _integrate(site, new_v, vtype)
    else:
        site.store(("vel_out", "reflected", "v_after"), vtype, new_v, bound)


def normal_tangential(site: Site, as_func: bool) -> None:
    """A vector split along a surface normal: v_n = (v.n) n and v_t = v - v_n; the tangential part
    kept, damped by friction with the normal part reversed, or both parts' sizes written."""
    w = site.w
    vtype = w.rng.choice(["vec2", "vec3", "vec3"])
    v_in = site.input(("vel", "v_rel", "forces"), vtype, -2.0, 2.0)
    n_in = site.input(("normals", "surface_n", "axis_dirs"), vtype)
    bound = 2.0 * math.sqrt(_width(vtype))
    kind = w.rng.choice(["tangential", "friction", "magnitudes"])
    core = Core(site, "split_normal_tangent", as_func)
    v = core.param("v", vtype, v_in)
    n = core.let("n", f"wp.normalize({core.param('normal', vtype, n_in)})")
    vn = core.let("v_n", f"wp.dot({v}, {n}) * {n}" if w.rng.random() < 0.5 else f"{n} * wp.dot({v}, {n})")
    if kind == "tangential":
        site.store(("v_tangent", "tangential", "slide"), vtype, core.result(f"{v} - {vn}", vtype), 2.0 * bound)
        w.feature("tangential component")
        return
    vt = core.let("v_t", f"{v} - {vn}")
    if kind == "friction":
        mu = core.param("mu", "float32", site.knob(("friction", "mu"), (0.125, 0.25, 0.5)))
        keep = repr(1.0 - float(mu)) if mu[0].isdigit() else f"(1.0 - {mu})"  # a literal one folded
        new_v = core.result(f"{vt} * {keep} - {vn}", vtype)
        if w.rng.random() < 0.4:
            new_v = site.local("v_new", new_v)
            site.store(("vel_out", "v_after", "response"), vtype, new_v, 3.0 * bound)
            _integrate(site, new_v, vtype)
        else:
            site.store(("vel_out", "v_after", "response"), vtype, new_v, 3.0 * bound)
        w.feature("friction on the tangential component, normal part reversed")
        return
    if core.as_func:
        parts = core.result(f"{vn}, {vt}", (vtype, vtype))
        w.emit(f"{site.local_name('v_n')}, {site.local_name('v_t')} = {parts}")
        vn, vt = site.local_name("v_n"), site.local_name("v_t")
        w.feature("tuple return")
    site.store(("normal_speed", "v_normal"), "float32", f"wp.length({vn})", bound)
    site.store(("tangent_speed", "v_slide"), "float32", f"wp.length({vt})", 2.0 * bound)
    w.feature("normal and tangential magnitudes")


def shading(site: Site, as_func: bool) -> None:
    """Diffuse (Lambert) shading of surface normals by a light passed by value, max(n.l, 0) times an
    albedo, plus an ambient term; or with a Blinn-Phong specular highlight (half vector, a power)."""
    w = site.w
    n_in = site.input(("normals", "surface_n", "n_world"), "vec3")
    coloured = w.rng.random() < 0.5
    albedo_in = site.input(("albedo", "base_color", "diffuse"), "vec3" if coloured else "float32", 0.0, 1.0)
    point = w.rng.random() < 0.4
    if point:  # a point light above the surface points (|p| <= 2 per component): never at one of them
        p_in = site.input(("positions", "points", "p_world"), "vec3", -2.0, 2.0)
        light = w.add_value(w.rng.choice(["light_pos", "lamp"]), "vec3",
                            (grid_value(w.rng, -1.0, 1.0, 3), grid_value(w.rng, 4.0, 6.0, 3), grid_value(w.rng, -1.0, 1.0, 3)))
    else:
        light = w.add_value(w.rng.choice(["light_dir", "sun", "to_light"]), "vec3",
                            tuple(grid_value(w.rng, -1.0, 1.0, 3) for _ in range(3)))
    specular = w.rng.random() < 0.5
    core = Core(site, "blinn_phong" if specular else "lambert", as_func)
    n = core.let("n", f"wp.normalize({core.param('normal', 'vec3', n_in)})")
    if point:
        to_light = core.let("to_l", f"{core.param('light_pos', 'vec3', light.src)} - {core.param('p', 'vec3', p_in)}")
        dist2 = core.let("dist2", f"wp.dot({to_light}, {to_light})")
        l_dir = core.let("l", f"{to_light} / wp.sqrt({dist2})")
        w.feature("point light (inverse-square falloff)")
    else:
        l_dir = core.let("l", f"wp.normalize({core.param('light', 'vec3', light.src)})")
        w.feature("directional light")
    albedo = core.param("albedo", "vec3" if coloured else "float32", albedo_in)
    if point:
        ndotl = core.let("ndotl", f"wp.max(wp.dot({n}, {l_dir}), 0.0) * 16.0 / {dist2}")
    else:
        ndotl = core.let("ndotl", f"wp.max(wp.dot({n}, {l_dir}), 0.0)")
    light_term = ndotl
    if w.rng.random() < 0.5:
        ambient = core.param("ambient", "float32", site.knob(("ambient", "ka"), (0.05, 0.1, 0.125)))
        light_term = f"({ambient} + {ndotl})"
    if specular:
        view = w.add_value(w.rng.choice(["view_dir", "eye", "to_eye"]), "vec3",
                           tuple(grid_value(w.rng, -1.0, 1.0, 3) for _ in range(3)))
        h = core.let("h", f"wp.normalize({l_dir} + wp.normalize({core.param('view', 'vec3', view.src)}))")
        power = core.param("shininess", "float32", site.knob(("shininess", "spec_power"), (8.0, 16.0, 32.0)))
        spec = core.let("spec", f"wp.pow(wp.max(wp.dot({n}, {h}), 0.0), {power})")
        value = f"{albedo} * {light_term} + " + (f"wp.vec3({spec}, {spec}, {spec})" if coloured else spec)
        w.feature("Blinn-Phong shading")
    else:
        value = f"{albedo} * {light_term}"
        w.feature("Lambert shading")
    site.store(("color", "radiance", "shade"), "vec3" if coloured else "float32",
               core.result(value, "vec3" if coloured else "float32"), 2.5)


def triangle(site: Site, as_func: bool) -> None:
    """A mesh triangle per thread, its corners gathered through index arrays: the normal is the cross
    product of two edges, the area half its length; written as area, unit normal or both, the areas
    also summed into the mesh's total with an atomic add."""
    w = site.w
    tris = w.dim[0]
    n_verts = w.rng.choice([tris // 2 + 3, tris + 2])
    verts = w.add_array(w.rng.choice(["verts", "points", "positions"]), "vec3", "input", shape=(n_verts,),
                        low=-2.0, high=2.0)
    w.unused.remove(verts)
    t = w.tid_names[0]
    corners = []
    # the face's (area-weighted) normal also added to its three vertices' normals, as a mesh's
    # vertex normals are built: the corner indices are then kept in locals
    scatter = w.rng.random() < 0.35
    ids = []
    layout = w.rng.random()
    if layout < 0.35:
        indices = w.add_array(w.rng.choice(["indices", "tri_indices", "faces"]), "int32", "index", shape=(3 * tris,),
                              index_high=n_verts - 1)
        for k in range(3):
            offset = f" + {k}" if k else ""
            ids.append(f"{indices}[3 * {t}{offset}]")
        w.feature("triangle corners through a flat index array")
    elif layout < 0.6:  # one row of three corner indices per triangle, as warp.sim keeps them
        indices = w.add_array(w.rng.choice(["tri_indices", "faces", "tris"]), "int32", "index", shape=(tris, 3),
                              index_high=n_verts - 1)
        ids = [f"{indices}[{t}, {k}]" for k in range(3)]
        w.feature("triangle corners through a 2-D index array")
    else:
        pattern = w.rng.choice(["i{k}", "v{k}_idx", "corner{k}"])  # one naming for the three
        for k in range(3):
            idx = w.add_array(pattern.format(k=k), "int32", "index", index_high=n_verts - 1)
            ids.append(f"{idx}[{t}]")
        w.feature("triangle corners through index arrays")
    if scatter:
        ids = [site.local(f"{'abc'[k]}_id", ids[k]) for k in range(3)]
    corners = [site.local("abc"[k], f"{verts}[{ids[k]}]") for k in range(3)]
    core = Core(site, "triangle_normal", as_func)
    a, b, c = (core.param(p, "vec3", v) for p, v in zip(("p0", "p1", "p2"), corners))
    if not core.as_func and w.rng.random() < 0.4:  # the edges named first
        e1, e2 = site.local("e1", f"{b} - {a}"), site.local("e2", f"{c} - {a}")
        nrm = site.local("nrm", f"wp.cross({e1}, {e2})")
    else:
        nrm = site.local("nrm", core.result(f"wp.cross({b} - {a}, {c} - {a})", "vec3"))
    if scatter:
        vn = w.add_array(w.rng.choice(["vertex_normals", "normal_accum"]), "vec3", "output", shape=(n_verts,))
        for k in range(3):
            w.emit(f"wp.atomic_add({vn}, {ids[k]}, {nrm})")
        w.note_bound(vn, 16.0 * 2.0 * tris)
        w.feature("face normals added to their vertices (atomic add)")
    kind = w.rng.choice(["area", "normal", "both"])
    if kind in ("area", "both"):
        area = f"0.5 * wp.length({nrm})"
        if w.rng.random() < 0.4:
            area = site.local("area", area)
            total = w.add_array(w.rng.choice(["total_area", "surface_area"]), "float32", "output", shape=(1,))
            w.emit(f"wp.atomic_add({total}, 0, {area})")
            w.note_bound(total, 16.0 * math.sqrt(3.0) * tris)
            w.feature("total area (atomic add)")
        site.store(("tri_area", "areas"), "float32", area, 16.0 * math.sqrt(3.0))
    if kind in ("normal", "both"):
        site.store(("face_normals", "tri_normals", "normals_out"), "vec3", f"wp.normalize({nrm})", 1.0)
    if w.rng.random() < 0.3:  # the face's centroid beside it (where a face's force or sample sits)
        site.store(("centroids", "face_centers"), "vec3", f"({corners[0]} + {corners[1]} + {corners[2]}) / 3.0", 2.0)
        w.feature("triangle centroid")
    w.feature(f"triangle {'area and normal' if kind == 'both' else kind}")


SEGMENT_END_NAMES = {"seg_a": "seg_b", "p0": "p1", "start": "end"}


def capsule_distance(site: Site, as_func: bool) -> None:
    """The distance from a point to a segment (a, b) passed by value: the projection parameter clamped
    to [0, 1], the closest point, its distance; minus a radius, a capsule's signed distance, and from
    it a penalty force's size k max(-d, 0)."""
    w = site.w
    vtype = w.rng.choice(["vec2", "vec3", "vec3"])
    width = _width(vtype)
    p_in = site.input(("points", "queries", "x"), vtype, -2.0, 2.0)
    while True:
        ends = [tuple(grid_value(w.rng, -1.5, 1.5, 2) for _ in range(width)) for _ in range(2)]
        if sum((x - y) ** 2 for x, y in zip(*ends)) >= 0.5:  # a segment of length >= 0.7
            break
    # the ends named as one pair (`seg_a` beside `p1` or `end` read as two people's names); the second
    # draw is kept, so every later draw of the kernel stays as it was
    a_name = w.rng.choice(["seg_a", "p0", "start"])
    w.rng.choice(["seg_b", "p1", "end"])
    a_val = w.add_value(a_name, vtype, ends[0])
    b_val = w.add_value(SEGMENT_END_NAMES[a_name], vtype, ends[1])
    capsule = w.rng.random() < 0.5
    core = Core(site, "sd_capsule" if capsule else "segment_distance", as_func)
    p = core.param("p", vtype, p_in)
    a, b = core.param("a", vtype, a_val.src), core.param("b", vtype, b_val.src)
    ab = core.let("ab", f"{b} - {a}")
    ab2 = f"wp.dot({ab}, {ab})" if w.rng.random() < 0.5 else f"wp.length_sq({ab})"
    t = core.let("t", f"wp.clamp(wp.dot({p} - {a}, {ab}) / {ab2}, 0.0, 1.0)")
    closest = f"{a} + {t} * {ab}"
    bound = 3.5 * math.sqrt(width)
    if capsule:
        radius = core.param("radius", "float32", site.knob(("radius", "r"), (0.25, 0.5)))
        d = core.result(f"wp.length({p} - ({closest})) - {radius}", "float32")
        w.feature("capsule signed distance")
        if w.rng.random() < 0.5:
            d = site.local("d", d)
            k = w.add_scalar(w.rng.choice(["stiffness", "k_contact"]), "float32", w.rng.choice([10.0, 100.0]))
            site.store(("penalty", "contact_force"), "float32", f"{k.src} * wp.max(-{d}, 0.0)", 100.0 * bound)
            w.feature("penalty from penetration depth")
        site.store(("sdf", "dist", "phi"), "float32", d, bound)
    else:
        c = core.let("closest", closest)
        if core.as_func or w.rng.random() < 0.5:
            site.store(("dist", "distance", "d_seg"), "float32", core.result(f"wp.length({p} - {c})", "float32"), bound)
        else:  # the closest point is written too
            site.store(("nearest", "closest_pt"), vtype, c, 1.5)
            site.store(("dist", "distance", "d_seg"), "float32", f"wp.length({p} - {c})", bound)
            w.feature("closest point")
        w.feature("point-segment distance")


def angle_between(site: Site, as_func: bool) -> None:
    """The angle between two vectors as atan2(|a x b|, a.b): accurate at every angle (acos of the
    normalised dot product loses it near 0 and pi); in 2-D the cross product is a number, and its sign
    gives a signed angle."""
    w = site.w
    vtype = w.rng.choice(["vec2", "vec3", "vec3"])
    # the two vectors: given per element; the edges meeting at a polyline's vertex (its turning
    # angle, as a rod or hair model bends); or a heading and the direction to a target
    source = w.rng.choice(["given", "given", "polyline", "target"]) if site.access == "own" else \
        w.rng.choice(["given", "given", "target"])
    if source == "polyline":
        pts = w.add_array(w.rng.choice(["points", "path", "polyline"]), vtype, "input", low=-2.0, high=2.0,
                          grid_bits=4)
        cur, prev, nxt = w.load(pts), w.neighbour(pts, 0, -1), w.neighbour(pts, 0, 1)
        a_in = site.local("e_in", f"{cur.src} - {prev.src}")
        b_in = site.local("e_out", f"{nxt.src} - {cur.src}")
        w.feature("turning angle of a polyline (its edges at the vertex)")
    elif source == "target":
        pos = site.input(("pos", "positions", "x"), vtype, -2.0, 2.0)
        a_in = site.input(("heading", "forward", "facing"), vtype, -2.0, 2.0)
        target = w.add_value(w.rng.choice(["target", "goal", "look_at"]), vtype,
                             tuple(grid_value(w.rng, -1.0, 1.0, 3) for _ in range(_width(vtype))))
        b_in = site.local("to_target", f"{target.src} - {pos}")
        w.feature("angle to a target (heading against the direction to it)")
    else:
        a_in = site.input(("a", "u", "dir_a"), vtype, -2.0, 2.0)
        b_in = site.input(("b", "v", "dir_b"), vtype, -2.0, 2.0)
    core = Core(site, "angle_between", as_func)
    a, b = core.param("a", vtype, a_in), core.param("b", vtype, b_in)
    if vtype == "vec3" and w.rng.random() < 0.35:  # signed, about a hinge axis (a joint's twist)
        axis_in = w.add_value(w.rng.choice(["axis", "hinge_axis", "up"]), "vec3",
                              w.rng.choice([(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)]))
        axis = core.param("axis", "vec3", axis_in.src)
        # both vectors projected onto the plane the (unit) axis is normal to, then their angle there
        a = core.let("a_p", f"{a} - wp.dot({a}, {axis}) * {axis}")
        b = core.let("b_p", f"{b} - wp.dot({b}, {axis}) * {axis}")
        sine = f"wp.dot(wp.cross({a}, {b}), {axis})"
        w.feature("angle about an axis (projected, signed)")
    elif vtype == "vec3":
        sine = f"wp.length(wp.cross({a}, {b}))"
    else:
        cross = core.let("cross_z", f"{a}[0] * {b}[1] - {a}[1] * {b}[0]")
        sine = cross if w.rng.random() < 0.5 else f"wp.abs({cross})"
        if sine == cross:
            w.feature("signed angle")
    angle = core.result(f"wp.atan2({sine}, wp.dot({a}, {b}))", "float32")
    if w.rng.random() < 0.4:
        site.store(("angle_deg", "degrees_out"), "float32", f"wp.degrees({angle})", 180.0)
    else:
        site.store(("angle", "theta", "angles"), "float32", angle, math.pi)
    w.feature("angle between vectors (atan2)")


def orthonormal_frame(site: Site, as_func: bool) -> None:
    """A tangent frame: Gram-Schmidt (the tangent made orthogonal to the normal and normalised, the
    bitangent their cross product) or two cross products; written as vectors, as a matrix's columns
    (TBN) or rows, or used for normal mapping (a tangent-space normal taken to the world)."""
    w = site.w
    n_in = site.input(("normals", "n_in", "up"), "vec3")
    handed = w.rng.random() < 0.35  # glTF's tangents: xyz the direction, w the handedness (its sign)
    t_in = site.input(("tangents", "t_in", "guide"), "vec4" if handed else "vec3")
    use = w.rng.choice(["vectors", "matrix", "normal map"])
    mapped = site.input(("normal_map", "n_tangent", "bump"), "vec3", -0.5, 1.0) if use == "normal map" else None
    core = Core(site, "perturb_normal" if use == "normal map" else "tangent_frame", as_func)
    n = core.let("n", f"wp.normalize({core.param('normal', 'vec3', n_in)})")
    guide = core.param("tangent", "vec4" if handed else "vec3", t_in)
    sign = None
    if handed:
        sign = core.let("sign", f"wp.where({guide}[3] < 0.0, -1.0, 1.0)")
        guide = core.let("g", f"wp.vec3({guide}[0], {guide}[1], {guide}[2])")
        w.feature("tangent handedness")
    if w.rng.random() < 0.5:
        t = core.let("t", f"wp.normalize({guide} - wp.dot({guide}, {n}) * {n})")
        b = core.let("b", f"wp.cross({n}, {t})" + (f" * {sign}" if sign else ""))
        w.feature("orthonormal frame (Gram-Schmidt)")
    else:
        b = core.let("b", f"wp.normalize(wp.cross({n}, {guide}))" + (f" * {sign}" if sign else ""))
        t = core.let("t", f"wp.cross({b}, {n})" + (f" * {sign}" if sign else ""))
        w.feature("orthonormal frame (cross products)")
    if use == "normal map":
        m = core.param("n_ts", "vec3", mapped)
        if w.rng.random() < 0.5:
            value = f"wp.normalize({t} * {m}[0] + {b} * {m}[1] + {n} * {m}[2])"
        else:
            value = f"wp.normalize(wp.matrix_from_cols({t}, {b}, {n}) @ {m})"
        site.store(("shading_normal", "n_out", "mapped_n"), "vec3", core.result(value, "vec3"), 1.0)
        w.feature("normal mapping (tangent space to world)")
    elif use == "matrix":
        columns = w.rng.random() < 0.5  # a TBN matrix (columns) maps tangent space to the world
        ctor = "wp.matrix_from_cols" if columns else "wp.matrix_from_rows"
        site.store(("frames", "tbn", "basis"), "mat33", core.result(f"{ctor}({t}, {b}, {n})", "mat33"), 1.0)
        w.feature(f"frame as matrix {'columns' if columns else 'rows'}")
    else:
        if core.as_func:
            call = core.result(f"{t}, {b}", ("vec3", "vec3"))
            t, b = site.local_name("t"), site.local_name("b")
            w.emit(f"{t}, {b} = {call}")
            w.feature("tuple return")
        site.store(("tangent_out", "t_out"), "vec3", t, 1.0)
        site.store(("bitangent", "b_out"), "vec3", b, 1.0)


def limit_length(site: Site, as_func: bool) -> None:
    """A vector's length capped (a speed limit, a maximum force): scaled by min(1, max / |v|), the
    length guarded away from zero; or clamped between a least and a greatest length."""
    w = site.w
    vtype = w.rng.choice(["vec2", "vec3", "vec3", "vec4"])
    v_in = site.input(("vel", "forces", "steps"), vtype, -4.0, 4.0)
    core = Core(site, "clamp_length", as_func)
    v = core.param("v", vtype, v_in)
    top = core.param("max_len", "float32", site.knob(("max_speed", "v_max", "max_len"), (1.0, 2.0, 2.5)))
    length = core.let("speed", f"wp.length({v})")
    guarded = f"wp.max({length}, 1.0e-6)"
    if w.rng.random() < 0.5:
        scale = f"wp.min(1.0, {top} / {guarded})"
        w.feature("length capped")
    else:
        low = core.param("min_len", "float32", site.knob(("min_speed", "v_min"), (0.25, 0.5)))
        scale = f"wp.clamp({length}, {low}, {top}) / {guarded}"
        w.feature("length clamped to a range")
    new_v = core.result(f"{v} * ({scale})", vtype)
    if vtype != "vec4" and w.rng.random() < 0.35:
        new_v = site.local("v_new", new_v)
        site.store(("vel_out", "limited", "clamped"), vtype, new_v, 4.0, bounded=True)
        _integrate(site, new_v, vtype)
    else:
        site.store(("vel_out", "limited", "clamped"), vtype, new_v, 4.0, bounded=True)


def composite(site: Site, as_func: bool) -> None:
    """Colours (RGBA as vec4): one layer over another (premultiplied "over", src + dst (1 - alpha_src),
    the source premultiplied first when it holds straight alpha), multiplied or screened, or
    interpolated by a per-pixel weight; the result's luminance (Rec. 709 weights) written beside it."""
    w = site.w
    src_in = site.input(("src_rgba", "layer", "fg"), "vec4", 0.0, 1.0)
    canvas = None
    if w.rng.random() < 0.4:  # the layer blended onto a canvas in place
        canvas, dst_in = site.inout(("canvas", "framebuffer", "accum"), "vec4", 0.0, 1.0)
        w.feature("blended in place (in-out canvas)")
    else:
        dst_in = site.input(("dst_rgba", "background", "bg"), "vec4", 0.0, 1.0)
    mode = w.rng.choice(["over", "over", "multiply", "screen", "lerp"])
    core = Core(site, {"over": "over", "multiply": "multiply_blend", "screen": "screen_blend",
                       "lerp": "mix_colors"}[mode], as_func)
    src, dst = core.param("src", "vec4", src_in), core.param("dst", "vec4", dst_in)
    if mode == "over":
        if w.rng.random() < 0.5:
            src = core.let("pre", f"wp.vec4({src}[0] * {src}[3], {src}[1] * {src}[3], {src}[2] * {src}[3], {src}[3])")
            w.feature("straight alpha premultiplied")
        alpha = f"{src}[3]" if w.rng.random() < 0.5 else f"{src}.w"
        rgba = core.result(f"{src} + {dst} * (1.0 - {alpha})", "vec4")
        w.feature("alpha compositing (over)")
    elif mode == "multiply":
        rgba = core.result(f"wp.cw_mul({src}, {dst})", "vec4")
        w.feature("multiply blend (cw_mul)")
    elif mode == "screen":
        one = core.let("one", "wp.vec4(1.0, 1.0, 1.0, 1.0)")
        rgba = core.result(f"{one} - wp.cw_mul({one} - {src}, {one} - {dst})", "vec4")
        w.feature("screen blend")
    else:
        t = core.param("t", "float32", site.input(("mix", "weight", "coverage"), "float32", 0.0, 1.0))
        rgba = core.result(f"wp.lerp({dst}, {src}, {t})", "vec4")
        w.feature("colour interpolation (lerp)")
    if w.rng.random() < 0.5:
        rgba = site.local("rgba", rgba)
        if canvas:
            site.store_to(canvas, rgba, 2.0)
        else:
            site.store(("composite", "rgba_out", "blended"), "vec4", rgba, 2.0)
        weights = "wp.vec3(0.2126, 0.7152, 0.0722)"
        if w.rng.random() < 0.5:
            weights = w.add_value(w.rng.choice(["luma_weights", "rec709"]), "vec3", (0.2126, 0.7152, 0.0722)).src
        rgb = f"wp.vec3({rgba}[0], {rgba}[1], {rgba}[2])"
        site.store(("luminance", "gray"), "float32", f"wp.dot({rgb}, {weights})", 2.0)
        w.feature("luminance")
    elif canvas:
        site.store_to(canvas, rgba, 2.0)
    else:
        site.store(("composite", "rgba_out", "blended"), "vec4", rgba, 2.0)


def _bounded_state(site: Site, vtype: str, low: float, high: float, with_velocity: bool):
    """The positions (and velocities) a boundary kernel corrects: updated where they are, as a solver
    step does, or read and written to new arrays (always through an active set, whose index array
    may name an element twice). (position array or None, position local, velocity array or None,
    velocity local or None)."""
    w = site.w
    in_place = site.index is None and w.rng.random() < 0.5
    if in_place:
        x_array, x = site.inout(("pos", "x", "positions"), vtype, low, high)
        v_array, v = site.inout(("vel", "v", "velocities"), vtype, -2.0, 2.0) if with_velocity else (None, None)
        w.feature("state updated in place")
        return x_array, x, v_array, v
    x = site.input(("pos", "x", "positions"), vtype, low, high, grid_bits=6)
    v = site.input(("vel", "v", "velocities"), vtype, -2.0, 2.0) if with_velocity else None
    return None, x, None, v


def _store_state(site: Site, vtype: str, x_array: str | None, x: str, x_bound: float,
                 v_array: str | None, v: str | None) -> None:
    """The new position and velocity: written over the state in place, or into outputs of their own,
    which hold the new state as it is (never added to or blended with what they held)."""
    if x_array:
        site.store_to(x_array, x, x_bound)
    else:
        site.store(("pos_out", "x_new", "positions_out"), vtype, x, x_bound, state=True)
    if v is None:
        return
    if v_array:
        site.store_to(v_array, v, 2.0)
    else:
        site.store(("vel_out", "v_new", "velocities_out"), vtype, v, 2.0, state=True)


def box_walls(site: Site, as_func: bool) -> None:
    """Particles kept inside an axis-aligned box, as SPH and DEM solvers bound their domain, one
    component at a time: a coordinate past a wall is put back on it and that velocity component
    reversed and scaled by a restitution (a loop over the axes: `p[k] = hi`, `v[k] *= -e`); only a
    ground plane (the up component, the others damped by friction); or a periodic box, each
    coordinate wrapped back in (positions only).

    Numerics: every branch compares a loaded coordinate with a bound (exact values); a wrapped
    coordinate lies on a binary grid (1/64, or 1/1024 updated in place) at most 2L from 0 and the box
    length on a 1/2 grid, so `p[k] += L` is exact, and so is `p[k] / L` for the L (2 or 4) it divides by."""
    w = site.w
    mode = w.rng.choice(["walls", "walls", "ground", "periodic"])
    vtype = w.rng.choice(["vec2", "vec3", "vec3"])
    n = _width(vtype)
    if mode == "periodic":
        length = w.rng.choice([2.0, 4.0, 3.0, 2.5])
        x_array, x_in, _, _ = _bounded_state(site, vtype, -0.5 * length, 1.5 * length, False)
        box = w.add_scalar(w.rng.choice(["box_size", "L", "period"]), "float32", length).src
        core = Core(site, w.rng.choice(["wrap_periodic", "wrap_into_box"]), as_func)
        p = core.param("p", vtype, x_in) if as_func else x_in
        size = core.param("box", "float32", box)
        with core.block(f"for k in range({n}):"):
            if length in (2.0, 4.0) and w.rng.random() < 0.35:  # a power of two: the quotient is exact
                core.emit(f"{p}[k] = {p}[k] - {size} * wp.floor({p}[k] / {size})")
                w.feature("periodic wrap by floor")
            else:
                with core.block(f"if {p}[k] < 0.0:"):
                    core.emit(f"{p}[k] += {size}")
                with core.block(f"elif {p}[k] >= {size}:"):
                    core.emit(f"{p}[k] -= {size}")
                w.feature("periodic wrap (one box length back)")
        x = core.result(p, vtype)
        if as_func:
            x = site.local("p_wrapped", x)
        _store_state(site, vtype, x_array, x, length, None, None)
        w.feature("periodic boundary (component by component)")
        return
    x_array, x_in, v_array, v_in = _bounded_state(site, vtype, -2.5, 2.5, True)
    core = Core(site, "ground_contact" if mode == "ground" else w.rng.choice(["enforce_bounds", "box_collide"]), as_func)
    p = core.param("p", vtype, x_in) if as_func else x_in
    v = core.param("v", vtype, v_in) if as_func else v_in
    e = core.param("e", "float32", site.knob(("restitution", "e"), (0.25, 0.5, 0.75)))
    if mode == "ground":
        up = 1 if n == 2 or w.rng.random() < 0.7 else 2  # y up, or z up
        named = w.rng.random() < 0.4  # `p.y` rather than `p[1]`
        at = (lambda k: f".{'xyz'[k]}") if named else (lambda k: f"[{k}]")
        floor_in = w.add_scalar(w.rng.choice(["ground", "floor_height", "ground_y" if up == 1 else "ground_z"]),
                                "float32", grid_value(w.rng, -1.5, -0.25, 2)).src
        floor = core.param("ground", "float32", floor_in)
        mu = core.param("mu", "float32", site.knob(("friction", "mu"), (0.125, 0.25, 0.5)))
        keep = repr(1.0 - float(mu)) if mu[0].isdigit() else f"(1.0 - {mu})"  # a literal one folded
        with core.block(f"if {p}{at(up)} < {floor}:"):
            core.emit(f"{p}{at(up)} = {floor}")
            with core.block(f"if {v}{at(up)} < 0.0:"):
                core.emit(f"{v}{at(up)} = -{v}{at(up)} * {e}")
            for k in range(n):
                if k != up:
                    core.emit(f"{v}{at(k)} *= {keep}")
        w.feature("ground plane contact (restitution, friction on the tangential components)")
    else:
        shape = w.rng.choice(["vectors", "cube", "bounds"])
        if shape == "vectors":
            half = [grid_value(w.rng, 1.25, 2.0, 2) for _ in range(n)]
            lo_name, hi_name = w.rng.choice([("box_min", "box_max"), ("lower", "upper"), ("domain_lo", "domain_hi")])
            lo_in = w.add_value(lo_name, vtype, tuple(-h for h in half)).src
            hi_in = w.add_value(hi_name, vtype, tuple(half)).src
            lo, hi = core.param("lo", vtype, lo_in), core.param("hi", vtype, hi_in)
            lo_k, hi_k = f"{lo}[k]", f"{hi}[k]"
            w.feature("box bounds as vectors")
        elif shape == "cube":
            half = core.param("half", "float32", w.add_scalar(w.rng.choice(["half_extent", "box_half", "extent"]),
                                                              "float32", grid_value(w.rng, 1.25, 2.0, 2)).src)
            lo_k, hi_k = f"-{half}", half
            w.feature("cube centred on the origin")
        else:
            lo_name, hi_name = w.rng.choice([("x_min", "x_max"), ("lo", "hi"), ("lower", "upper"), ("wall_lo", "wall_hi")])
            lo_in = w.add_scalar(lo_name, "float32", grid_value(w.rng, -2.0, -1.25, 2)).src
            hi_in = w.add_scalar(hi_name, "float32", grid_value(w.rng, 1.25, 2.0, 2)).src
            lo_k, hi_k = core.param("lo", "float32", lo_in), core.param("hi", "float32", hi_in)
        inward = w.rng.random() < 0.35  # the velocity made to point back in, whatever its sign was
        with core.block(f"for k in range({n}):"):
            with core.block(f"if {p}[k] < {lo_k}:"):
                core.emit(f"{p}[k] = {lo_k}")
                core.emit(f"{v}[k] = wp.abs({v}[k]) * {e}" if inward else f"{v}[k] *= -{e}")
            with core.block(f"elif {p}[k] > {hi_k}:"):
                core.emit(f"{p}[k] = {hi_k}")
                core.emit(f"{v}[k] = -wp.abs({v}[k]) * {e}" if inward else f"{v}[k] *= -{e}")
        w.feature("box walls (component by component, restitution)")
    if as_func:
        call = core.result(f"{p}, {v}", (vtype, vtype))
        x, v = site.local_name("p_new"), site.local_name("v_new")
        w.emit(f"{x}, {v} = {call}")
        w.feature("tuple return")
    else:
        x = p
    _store_state(site, vtype, x_array, x, 2.5, v_array, v)


INTERPOLATION_SHARE = 0.12  # vector kernels that interpolate vertex attributes through a generic @wp.func

# A mesh's per-vertex attributes: (input hints, type, value range, output hints). Normals are kept to
# positive components, so an interpolated normal is never near zero before it is normalised.
VERTEX_ATTRIBUTES = (
    (("points", "positions", "verts"), "vec3", -2.0, 2.0, ("sample_points", "surface_points", "positions_out")),
    (("normals", "vertex_normals"), "vec3", 0.2, 1.0, ("sample_normals", "normals_out")),
    (("uvs", "tex_coords"), "vec2", 0.0, 1.0, ("sample_uvs", "uvs_out")),
    (("colors", "vertex_colors"), "vec4", 0.0, 1.0, ("sample_colors", "colors_out")),
    (("temperature", "vertex_weights", "density"), "float32", 0.0, 1.0, ("sample_values", "values_out")),
)


def chooses_interpolation(seed: int) -> bool:
    """Whether vector kernel `seed` interpolates vertex attributes: a stream of its own, so the other
    vector kernels keep every draw."""
    return random.Random(seed ^ 0xBA7C).random() < INTERPOLATION_SHARE


def interpolate_attributes(site: Site) -> None:
    """Vertex attributes interpolated at points on a mesh's triangles (a surface sampler, a
    rasteriser's varyings, a particle emitter): each sample names its triangle and its barycentric
    weights (stored, or from two coordinates u, v), the triangle's corners come through its index
    array, and every attribute, whatever its type (positions, normals, texture coordinates, colours,
    a scalar field), goes through one generic `@wp.func` (`Any` parameters) that Warp compiles once
    per type, as library code written once for every attribute does. The helper takes the three
    corner values, or the attribute's array and the corner indices (`wp.array(dtype=Any)`);
    interpolated normals are normalised."""
    w = site.w
    rng = w.rng
    samples = w.dim[0]
    n_tris = rng.choice([samples // 4 + 1, samples // 2 + 1, samples])
    n_verts = rng.choice([n_tris // 2 + 3, n_tris + 2])
    tid = w.tid_names[0]
    tri_ids = w.add_array(rng.choice(["sample_tri", "face_ids", "tri_ids"]), "int32", "index", index_high=n_tris - 1)
    face = site.local(rng.choice(["face", "tri", "f"]), f"{tri_ids}[{tid}]")
    if rng.random() < 0.5:
        indices = w.add_array(rng.choice(["indices", "tri_indices"]), "int32", "index", shape=(3 * n_tris,),
                              index_high=n_verts - 1)
        corner_values = [f"{indices}[3 * {face}{f' + {k}' if k else ''}]" for k in range(3)]
        w.feature("triangle corners through a flat index array")
    else:  # one row of three corner indices per triangle, as warp.sim keeps them
        indices = w.add_array(rng.choice(["tris", "faces", "tri_indices"]), "int32", "index", shape=(n_tris, 3),
                              index_high=n_verts - 1)
        corner_values = [f"{indices}[{face}, {k}]" for k in range(3)]
        w.feature("triangle corners through a 2-D index array")
    corners = [site.local(h, v) for h, v in zip(rng.choice([("i", "j", "k"), ("i0", "i1", "i2"), ("v0", "v1", "v2")]),
                                                 corner_values)]
    stored_weights = rng.random() < 0.5
    if stored_weights:  # the sampler's barycentric weights, one vec3 per sample
        bary_in = w.add_array(rng.choice(["bary", "barycentrics", "sample_bary"]), "vec3", "input", low=0.05, high=1.0)
        w.unused.remove(bary_in)
        weights = [site.local("bary", f"{bary_in}[{tid}]")]
        weight_sum = 3.0
    else:  # two coordinates u, v in the triangle; the first corner's weight is what they leave
        uv_in = w.add_array(rng.choice(["sample_uv", "uv_coords", "local_uv"]), "vec2", "input", low=0.0, high=0.5)
        w.unused.remove(uv_in)
        uv = site.local("uv", f"{uv_in}[{tid}]")
        if rng.random() < 0.5:
            weights = [site.local("bary", f"wp.vec3(1.0 - {uv}[0] - {uv}[1], {uv}[0], {uv}[1])")]
        else:
            weights = [site.local("u", f"{uv}[0]"), site.local("v", f"{uv}[1]")]
        weight_sum = 1.0
    by_array = rng.random() < 0.4
    helper = f"{rng.choice(['interpolate', 'barycentric_interp', 'interp_attribute'])}_{w.name.split('_')[-1]}"
    if len(weights) == 1:
        weight_params = "bary: wp.vec3"
        mul_right = rng.random() < 0.5
        terms = [f"{{{k}}} * bary[{k}]" if mul_right else f"bary[{k}] * {{{k}}}" for k in range(3)]
        combination = " + ".join(terms)
    else:
        weight_params = "u: float, v: float"
        combination = rng.choice(["{0} * (1.0 - u - v) + {1} * u + {2} * v", "{0} + ({1} - {0}) * u + ({2} - {0}) * v"])
    if by_array:
        values = ("values[i]", "values[j]", "values[k]")
        array = rng.choice(["wp.array(dtype=Any)", "wp.array[Any]"])
        params = f"values: {array}, i: int, j: int, k: int, {weight_params}"
        w.feature("generic @wp.func over arrays of any type (wp.array(dtype=Any))")
    else:
        values = ("a", "b", "c")
        params = f"a: Any, b: Any, c: Any, {weight_params}"
        w.feature("generic @wp.func (Any parameters)")
    w.add_import("from typing import Any")
    w.add_helper(f"@wp.func\ndef {helper}({params}):\n    return {combination.format(*values)}", helper)
    # two to four attributes, of at least two types: the helper serves each type
    while True:
        chosen = rng.sample(VERTEX_ATTRIBUTES, rng.choice([2, 2, 3, 4]))
        if len({a[1] for a in chosen}) >= 2:
            break
    names = []
    for hints, dtype, low, high, out_hints in chosen:
        attr = w.add_array(rng.choice(hints), dtype, "input", shape=(n_verts,), low=low, high=high)
        w.unused.remove(attr)
        names.append(attr)
        args = [attr, *corners] if by_array else [f"{attr}[{c}]" for c in corners]
        value = f"{helper}({', '.join(args + weights)})"
        bound = max(abs(low), abs(high)) * weight_sum
        if hints[0] == "normals":
            value, bound = f"wp.normalize({value})", 1.0
        site.store(out_hints, dtype, value, bound)
    w.feature(f"vertex attributes interpolated ({', '.join(names)})")


# One entry per computation, with the launches that suit it (a grid for per-pixel and per-cell data).
VECTOR_FORMS: dict[str, Form] = {
    "bounce": Form(bounce, PER_ELEMENT),
    "normal and tangential parts": Form(normal_tangential, PER_ELEMENT),
    "shading": Form(shading, ACCESSES),
    "triangle": Form(triangle, ("own",)),
    "capsule distance": Form(capsule_distance, ACCESSES),
    "angle between": Form(angle_between, PER_ELEMENT),
    "orthonormal frame": Form(orthonormal_frame, ACCESSES),
    "limit length": Form(limit_length, ACCESSES),
    "composite": Form(composite, ("own", "guarded", "grid")),
    "box walls": Form(box_walls, PER_ELEMENT),
}


def generate(rng: random.Random, name: str, seed: int) -> KernelSpec:
    if chooses_interpolation(seed):  # its own stream: the other forms keep their draws
        w = RichKernelWriter(rng, name, "vector", seed, launch(rng, "own"))
        interpolate_attributes(Site(w, "own"))
        return w.finish("Vector kernel")
    form = VECTOR_FORMS[rng.choice(list(VECTOR_FORMS))]
    access = rng.choice(form.accesses)
    w = RichKernelWriter(rng, name, "vector", seed, launch(rng, access))
    form.build(Site(w, access), rng.random() < FUNC_SHARE)
    return w.finish("Vector kernel")
