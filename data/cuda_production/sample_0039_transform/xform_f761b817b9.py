import warp as wp


@wp.kernel
def xform_f761b817b9(ang_vel: wp.array(dtype=wp.vec3), r_com: wp.array(dtype=wp.vec3), v0: wp.vec3, v_point: wp.array[wp.vec3], inertia: wp.mat33, orient: wp.array[wp.quat], tau: wp.array[wp.vec3], L: wp.array[wp.vec3], det_out: wp.array[wp.float32]):
    tid = wp.tid()
    v = ang_vel[tid]
    p = r_com[tid]
    v_point[tid] = v0 + wp.cross(v, p)
    q = wp.normalize(orient[tid])
    p2 = tau[tid]
    tau_b = wp.quat_rotate_inv(q, p2)
    I_eff = inertia + wp.outer(tau_b, tau_b)
    L[tid] = wp.quat_rotate(q, I_eff * tau_b)
    det = wp.determinant(I_eff)
    det_out[tid] = det * p2[0]
