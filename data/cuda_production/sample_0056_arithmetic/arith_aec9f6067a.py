import warp as wp


@wp.kernel
def arith_aec9f6067a(w: wp.array2d(dtype=wp.int32), q: wp.array2d(dtype=wp.int32), res: wp.array2d(dtype=wp.int32), res2: wp.array2d(dtype=int)):
    i, j = wp.tid()
    w_v = w[i, j]
    q_v = q[i, j]
    n1 = q_v / 16
    n2 = wp.abs(w_v * q_v)
    res[i, j] = max(n1 + q_v, n2 // 5)
    res2[i, j] = min(w_v * n2, q_v) / 8
