import warp as wp


@wp.kernel
def math_f349515bf0(src: wp.array[wp.float32], u: wp.array(dtype=wp.float32), q: wp.array[float], num: wp.int32, res: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    if tid >= num:
        return
    src_v = src[tid]
    u_v = u[tid]
    q_v = q[tid]
    v1 = wp.atan2(u_v, src_v)
    v2 = wp.sin(q_v / -2.0)
    v3 = wp.atan2(q_v, u_v / 8.0)
    res[tid] = (wp.sin(v3 / 2.0) + v1) - v2
