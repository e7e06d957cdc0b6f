import warp as wp


@wp.kernel
def vec_b86975fbf4(is_active: wp.array(dtype=int), vel: wp.array(dtype=wp.vec2), v_min: float, limited: wp.array(dtype=wp.vec2)):
    tid = wp.tid()
    if is_active[tid] == 0:
        return
    vel_v = vel[tid]
    speed = wp.length(vel_v)
    v_new = vel_v * (wp.clamp(speed, v_min, 1.0) / wp.max(speed, 1.0e-6))
    limited[tid] += v_new
