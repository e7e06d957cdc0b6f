import warp as wp


@wp.kernel(enable_backward=False)
def xform_f761b817b9(I_body: wp.mat33, spin_axis: wp.vec3, angle: wp.array[float], impulse: wp.array(dtype=wp.vec3), ang_mom: wp.array(dtype=wp.vec3), jac: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    q = wp.quat_from_axis_angle(wp.normalize(spin_axis), angle[tid])
    p = impulse[tid]
    tau_b = wp.quat_rotate_inv(q, p)
    I_eff = I_body + wp.outer(tau_b, tau_b)
    ang_mom[tid] = wp.quat_rotate(q, I_eff * tau_b)
    det = wp.determinant(I_eff)
    jac[tid] = det * p[0]
