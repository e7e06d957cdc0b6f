import warp as wp


SUBSTEP = 0.0625


@wp.kernel(enable_backward=False)
def xform_2f586a1c5f(orient: wp.array(dtype=wp.quat), omega: wp.array(dtype=wp.vec3), vel: wp.array(dtype=wp.vec3), rotated: wp.array(dtype=wp.vec3), mix_rate: float):
    tid = wp.tid()
    q = wp.normalize(orient[tid])
    w = omega[tid]
    dq = wp.quat(w, 0.0) * q
    q_new = wp.normalize(q + 0.5 * SUBSTEP * dq)
    orient[tid] = q_new
    v = vel[tid]
    rotated[tid] = (1.0 - mix_rate) * rotated[tid] + mix_rate * wp.quat_rotate_inv(q_new, v)
