import warp as wp


@wp.kernel
def math_84cc01b7c0(p: wp.array(dtype=wp.float32), w: wp.array[wp.float32], res: wp.array[wp.float32]):
    tid = wp.tid()
    p_v = p[tid]
    w_v = w[tid]
    v1 = wp.cos(wp.cos(w_v))
    res[tid] = wp.cos(p_v) - v1
