import warp as wp


CONTACT_KE = 1.75


@wp.func
def xform_83ad77f9b2_signed_distance(plane: wp.vec4, p: wp.vec3) -> float:
    normal = wp.vec3(plane.x, plane.y, plane.z)
    return wp.dot(normal, p) + plane.w

@wp.kernel
def xform_83ad77f9b2(plane: wp.vec4, offsets: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3), ang_vel: wp.array(dtype=wp.vec3), arm: wp.array(dtype=wp.vec3), v_com: wp.vec3, vel_out: wp.array[wp.vec3]):
    tid = wp.tid()
    p = offsets[tid]
    depth = wp.min(xform_83ad77f9b2_signed_distance(plane, p), 0.0)
    out[tid] = -CONTACT_KE * depth * wp.vec3(plane[0], plane[1], plane[2])
    p2 = ang_vel[tid]
    r = arm[tid]
    vel_out[tid] = v_com + wp.cross(p2, r)
