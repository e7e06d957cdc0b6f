import warp as wp


@wp.kernel
def arith_aec9f6067a(w: wp.array2d(dtype=wp.int32), q: wp.array2d(dtype=wp.int32), res: wp.array2d(dtype=wp.int32), res2: wp.array2d(dtype=wp.int32), res3: wp.array2d(dtype=wp.int32)):
    i, j = wp.tid()
    w_v = w[i, j]
    q_v = q[i, j]
    res[i, j] = q_v * q_v + w_v * w_v
    res2[i, j] = ((q_v % 12) + 12) % 12
    res3[i, j] = wp.abs(q_v - w_v)
