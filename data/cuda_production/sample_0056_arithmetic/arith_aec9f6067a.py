import warp as wp


@wp.kernel
def arith_aec9f6067a(w: wp.array2d(dtype=wp.int32), q: wp.array2d(dtype=wp.int32), res: wp.array2d(dtype=wp.int32), y_out: wp.array2d(dtype=wp.int32)):
    i, j = wp.tid()
    w_v = w[i, j]
    q_v = q[i, j]
    n1 = wp.abs(min(q_v, w_v)) % 16
    res[i, j] = (q_v + w_v) // 2
    y_out[i, j] = n1
