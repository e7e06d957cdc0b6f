import warp as wp


STEP = wp.constant(0.0625)


@wp.kernel(enable_backward=False)
def xform_a8a3d93b97(inertia: wp.mat33, orient: wp.array[wp.quat], torque: wp.array[wp.vec3], out: wp.array(dtype=wp.vec3), jac: wp.array(dtype=wp.float32), rpy: wp.array(dtype=wp.vec3), dirs: wp.array[wp.vec3], g: wp.vec3, out2: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    q = wp.normalize(orient[tid])
    p = torque[tid]
    tau_b = wp.quat_rotate_inv(q, p)
    I_eff = inertia + wp.outer(tau_b, tau_b)
    out[tid] = wp.quat_rotate(q, I_eff * tau_b)
    det = wp.determinant(I_eff)
    jac[tid] = det * p[0]
    e = rpy[tid]
    q2 = wp.quat_rpy(e.x, e.y, e.z)
    v = dirs[tid]
    v_rot = wp.quat_rotate_inv(q2, v)
    out2[tid] = v_rot + g * STEP
