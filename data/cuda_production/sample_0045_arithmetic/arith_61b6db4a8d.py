import warp as wp


@wp.kernel
def arith_61b6db4a8d(p: wp.array2d(dtype=int), blocks: wp.array2d(dtype=int), limited: wp.array2d(dtype=int), bounded: wp.array2d(dtype=int)):
    i, j = wp.tid()
    p_v = p[i, j]
    blocks[i, j] = (wp.abs(p_v) + 7) // 8
    limited[i, j] = wp.clamp(p_v, 0, 50)
    bounded[i, j] = wp.clamp(p_v, -25, 25)
