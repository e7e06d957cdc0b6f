import warp as wp


@wp.kernel
def math_f349515bf0(src: wp.array[wp.float32], u: wp.array(dtype=wp.float32), q: wp.array[float], result: wp.array(dtype=float)):
    tid = wp.tid()
    src_v = src[tid]
    u_v = u[tid]
    q_v = q[tid]
    v1 = wp.atan2(u_v, src_v)
    v2 = -q_v
    v3 = wp.log(1.0 + wp.exp(wp.exp(u_v)))
    result[tid] = (wp.log(1.0 + wp.exp(v2)) + v1) - v3
