import warp as wp


@wp.kernel
def arith_aec9f6067a(q: wp.array2d(dtype=wp.int32), num_tiles: wp.array2d(dtype=wp.int32), wrapped: wp.array2d(dtype=wp.int32)):
    i, j = wp.tid()
    q_v = q[i, j]
    num_tiles[i, j] = (wp.abs(q_v) + 3) // 4
    wrapped[i, j] += ((q_v % 32) + 32) % 32
