import warp as wp


SUBSTEP = 0.0625


@wp.kernel
def xform_5ba78f6f49(omega: wp.array[wp.vec3], offsets: wp.array(dtype=wp.vec3), v0: wp.vec3, v_point: wp.array[wp.vec3], orient: wp.array[wp.quat], ang_vel: wp.array[wp.vec3], rot_new: wp.array[wp.quat]):
    tid = wp.tid()
    p = omega[tid]
    p2 = offsets[tid]
    v_point[tid] = v0 + wp.cross(p, p2)
    q = wp.normalize(orient[tid])
    r = ang_vel[tid]
    dq = wp.quat(r, 0.0) * q
    q_new = wp.normalize(q + dq * (0.5 * SUBSTEP))
    rot_new[tid] = q_new
