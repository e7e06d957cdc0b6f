import warp as wp


@wp.kernel
def arith_3971163115(src: wp.array[wp.float32], p: wp.array[float], u: wp.array(dtype=float), q: wp.array(dtype=wp.float32), n: wp.int32, y_out: wp.array[wp.float32], res: wp.array[float]):
    tid = wp.tid()
    if tid >= n:
        return
    src_v = src[tid]
    p_v = p[tid]
    u_v = u[tid]
    q_v = q[tid]
    v1 = q_v + p_v
    v2 = v1 * u_v
    y_out[tid] = float(n) - v2
    res[tid] = src_v / 1.5
