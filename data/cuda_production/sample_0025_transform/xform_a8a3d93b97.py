import warp as wp


@wp.kernel(enable_backward=False)
def xform_a8a3d93b97(I_body: wp.mat33, axis: wp.vec3, theta_deg: wp.array(dtype=float), tau: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3), jac: wp.array(dtype=wp.float32), ang_vel: wp.array(dtype=wp.vec3), arm: wp.array[wp.vec3], lin_vel: wp.vec3, vel_out: wp.array[wp.vec3]):
    tid = wp.tid()
    q = wp.quat_from_axis_angle(wp.normalize(axis), wp.radians(theta_deg[tid]))
    v = tau[tid]
    tau_b = wp.quat_rotate_inv(q, v)
    I_eff = I_body + wp.outer(tau_b, tau_b)
    out[tid] = wp.quat_rotate(q, I_eff * tau_b)
    det = wp.determinant(I_eff)
    jac[tid] = det * v[0]
    r = ang_vel[tid]
    v2 = arm[tid]
    vel_out[tid] = lin_vel + wp.cross(r, v2)
