import warp as wp


@wp.kernel
def arith_aec9f6067a(q: wp.array2d(dtype=wp.int32), res: wp.array2d(dtype=wp.int32), result: wp.array2d(dtype=wp.int32)):
    i, j = wp.tid()
    q_v = q[i, j]
    res[i, j] = (wp.abs(q_v) + 3) // 4
    result[i, j] = ((q_v % 32) + 32) % 32
