import warp as wp


RANGE = wp.constant(1.625)
STIFFNESS = 7.5625


@wp.func
def plane_distance(plane: wp.vec4, p: wp.vec3) -> float:
    return plane[0] * p[0] + plane[1] * p[1] + plane[2] * p[2] + plane[3]

@wp.kernel(enable_backward=False)
def xform_a8a3d93b97(verts: wp.array(dtype=wp.vec3), origin: wp.vec3, k: float, gain: wp.array(dtype=float), force: wp.array(dtype=wp.vec3), halfspace: wp.vec4, f_contact: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    p = verts[tid]
    d = p - origin
    dist = wp.sqrt(wp.length_sq(d))
    wgt = 1.0 - wp.smoothstep(0.0, RANGE, dist)
    force[tid] = gain[tid] * (k * wgt * wgt * d)
    depth = wp.min(plane_distance(halfspace, p), 0.0)
    f_contact[tid] = -STIFFNESS * depth * wp.vec3(halfspace[0], halfspace[1], halfspace[2])
