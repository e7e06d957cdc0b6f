import warp as wp


STIFFNESS = 6.0


@wp.func
def xform_c730527189_plane_sdf(plane: wp.vec4, p: wp.vec3) -> float:
    return plane[0] * p[0] + plane[1] * p[1] + plane[2] * p[2] + plane[3]

@wp.kernel(enable_backward=False)
def xform_c730527189(plane: wp.vec4, x_local: wp.array[wp.vec3], contact_force: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    p = x_local[tid]
    depth = wp.min(xform_c730527189_plane_sdf(plane, p), 0.0)
    contact_force[tid] = -STIFFNESS * depth * wp.vec3(plane[0], plane[1], plane[2])
