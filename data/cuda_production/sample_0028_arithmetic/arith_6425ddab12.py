import warp as wp


@wp.kernel
def arith_6425ddab12(w: wp.array[float], p: wp.array[float], q: wp.array[float], result: wp.array[float], output: wp.array[float], y_out: wp.array[float]):
    tid = wp.tid()
    q_v = q[tid]
    w_v = w[tid]
    p_v = p[tid]
    d = q_v - p_v
    result[tid] = d * d
    output[tid] = ((-1.4375 * q_v + 0.25) * q_v + 2.375) * q_v - 1.3125
    y_out[tid] = q_v + 0.875 * (w_v - q_v)
