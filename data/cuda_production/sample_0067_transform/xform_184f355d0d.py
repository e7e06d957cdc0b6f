import warp as wp


STIFFNESS = wp.constant(4.125)


@wp.func
def xform_184f355d0d_signed_distance(plane: wp.vec4, p: wp.vec3) -> float:
    normal = wp.vec3(plane.x, plane.y, plane.z)
    return wp.dot(normal, p) + plane.w

@wp.kernel
def xform_184f355d0d(plane: wp.vec4, x_local: wp.array[wp.vec3], contact_force: wp.array[wp.vec3]):
    tid = wp.tid()
    p = x_local[tid]
    depth = wp.min(xform_184f355d0d_signed_distance(plane, p), 0.0)
    contact_force[tid] = depth * (-STIFFNESS * depth * wp.vec3(plane[0], plane[1], plane[2]))
