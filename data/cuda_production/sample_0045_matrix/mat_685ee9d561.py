import warp as wp


@wp.kernel
def mat_685ee9d561(b: wp.array(dtype=wp.mat33), p: wp.array[wp.float32], dst: wp.array(dtype=wp.mat33)):
    tid = wp.tid()
    p_v = p[tid]
    px = float(tid) * 0.0078125
    b_v = b[tid]
    m1 = wp.outer(wp.vec3(p_v, wp.abs(p_v), -p_v) + wp.vec3(p_v, -0.6875, px), wp.vec3(p_v, wp.abs(p_v), 2.4375))
    m2 = b_v @ b_v
    dst[tid] = (wp.outer(wp.vec3(-1.3125, 1.875, p_v), wp.vec3(0.6875, p_v, -p_v)) + m1) - m2
