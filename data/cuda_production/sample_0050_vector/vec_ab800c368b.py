import warp as wp


@wp.func
def clamp_length(v: wp.vec2, max_len: float) -> wp.vec2:
    speed = wp.length(v)
    return v * (wp.min(1.0, max_len / wp.max(speed, 1.0e-6)))

@wp.kernel
def vec_ab800c368b(vel: wp.array[wp.vec2], max_len: float, clamped: wp.array[wp.vec2]):
    tid = wp.tid()
    vel_v = vel[tid]
    clamped[tid] = clamp_length(vel_v, max_len)
