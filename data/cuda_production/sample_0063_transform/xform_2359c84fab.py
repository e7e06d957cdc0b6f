import warp as wp


STIFFNESS = 2.75
RADIUS = wp.constant(2.25)


@wp.func
def xform_2359c84fab_plane_sdf(plane: wp.vec4, p: wp.vec3) -> float:
    return plane[0] * p[0] + plane[1] * p[1] + plane[2] * p[2] + plane[3]

@wp.kernel(enable_backward=False)
def xform_2359c84fab(plane: wp.vec4, points: wp.array[wp.vec3], contact_force: wp.array[wp.vec3], x_local: wp.array[wp.vec3], target: wp.vec3, k: wp.float32, force: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    r = points[tid]
    depth = wp.min(xform_2359c84fab_plane_sdf(plane, r), 0.0)
    contact_force[tid] = -STIFFNESS * depth * wp.vec3(plane[0], plane[1], plane[2])
    r2 = x_local[tid]
    d = r2 - target
    dist = wp.length(d)
    wgt = 1.0 - wp.smoothstep(0.0, RADIUS, dist)
    force[tid] = k * wgt * wgt * d
