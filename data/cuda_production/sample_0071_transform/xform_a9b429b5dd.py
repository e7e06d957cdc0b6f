import warp as wp


SUBSTEP = 0.0625


@wp.kernel(enable_backward=False)
def xform_a9b429b5dd(body_rot: wp.array[wp.quat], ang_vel: wp.array[wp.vec3], orient_out: wp.array[wp.quat], forces: wp.array[wp.vec3], v_out: wp.array[wp.vec3]):
    tid = wp.tid()
    q = wp.normalize(body_rot[tid])
    w = ang_vel[tid]
    dq = wp.quat(w, 0.0) * q
    q_new = wp.normalize(q + dq * (0.5 * SUBSTEP))
    orient_out[tid] = q_new
    f = forces[tid]
    v_rot = wp.quat_rotate(q_new, f)
    v_out[tid] += v_rot
