import warp as wp


DT = 0.125


@wp.kernel
def xform_5ba78f6f49(body_rot: wp.array(dtype=wp.quat), omega: wp.array(dtype=wp.vec3), orient_out: wp.array(dtype=wp.quat), vel: wp.array(dtype=wp.vec3), gain: wp.array(dtype=wp.float32), v_out: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    q = wp.normalize(body_rot[tid])
    w = omega[tid]
    dq = wp.quat(w, 0.0) * q
    q_new = wp.normalize(q + dq * (0.5 * DT))
    orient_out[tid] = q_new
    v = vel[tid]
    v_rot = wp.quat_rotate(q_new, v)
    v_out[tid] = gain[tid] * v_rot
