import warp as wp


@wp.kernel
def arith_6425ddab12(w: wp.array[float], p: wp.array[float], a: wp.array[float], q: wp.array[float], result: wp.array[float], output: wp.array[float], y_out: wp.array[float]):
    tid = wp.tid()
    q_v = q[tid]
    q_left = q[max(tid - 1, 0)]
    q_right = q[min(tid + 1, q.shape[0] - 1)]
    w_v = w[tid]
    p_v = p[tid]
    a_v = a[tid]
    lap = q_left + q_right - 2.0 * q_v
    d = q_v - p_v
    result[tid] = d * d
    output[tid] = (0.6875 * w_v - 1.4375) * w_v + 0.25
    y_out[tid] = 0.875 * lap + 0.125 * a_v
