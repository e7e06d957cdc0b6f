import warp as wp


@wp.kernel(enable_backward=False)
def xform_80cb405f2d(inertia: wp.mat33, body_rot: wp.array(dtype=wp.quat), impulse: wp.array(dtype=wp.vec3), scale: wp.array[wp.float32], out: wp.array[wp.vec3], omega: wp.array(dtype=wp.vec3), arm: wp.array(dtype=wp.vec3), v_com: wp.vec3, v_point: wp.array[wp.vec3]):
    tid = wp.tid()
    q = wp.normalize(body_rot[tid])
    p = impulse[tid]
    tau_b = wp.quat_rotate_inv(q, p)
    I_eff = inertia + wp.outer(tau_b, tau_b)
    I_inv = wp.inverse(I_eff)
    out[tid] = scale[tid] * wp.quat_rotate(q, I_inv * tau_b)
    r = omega[tid]
    p2 = arm[tid]
    W = wp.mat33(0.0, -r[2], r[1], r[2], 0.0, -r[0], -r[1], r[0], 0.0)
    v_point[tid] = v_com + W * p2
