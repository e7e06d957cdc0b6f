import warp as wp


@wp.kernel
def mat_685ee9d561(p: wp.array[wp.float32], out: wp.array(dtype=wp.mat33)):
    tid = wp.tid()
    p_v = p[tid]
    m1 = wp.outer(wp.normalize(wp.vec3(p_v, wp.abs(p_v), -p_v)), wp.vec3(wp.max(-0.9375, p_v), p_v * p_v, p_v))
    m2 = wp.mul(wp.transpose(p_v * m1), wp.outer(wp.vec3(p_v, 1.0, p_v * 1.875) + wp.vec3(p_v, 0.6875, -p_v), wp.vec3(1.3125 + p_v, p_v / 4.0, p_v) + wp.vec3((-2.375) - p_v, p_v, min(-0.125, p_v))))
    out[tid] = m2
