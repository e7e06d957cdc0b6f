import warp as wp


@wp.kernel
def arith_aec9f6067a(q: wp.array2d(dtype=wp.int32), blocks: wp.array2d(dtype=wp.int32), wrapped: wp.array2d(dtype=wp.int32)):
    i, j = wp.tid()
    q_v = q[i, j]
    blocks[i, j] = (wp.abs(q_v) + 3) // 4
    wrapped[i, j] += ((q_v % 16) + 16) % 16
