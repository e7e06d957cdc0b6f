import warp as wp


@wp.kernel
def arith_64c0f1ebd3(q: wp.array2d(dtype=wp.float32), x: wp.array2d(dtype=wp.float32), src: wp.array2d(dtype=float), w: wp.array2d(dtype=float), result: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    v1 = w[i, j]
    v2 = ((-x[i, j]) / 1.5) / 8.0
    v3 = src[i, j]
    result[i, j] = (((-wp.abs(q[i, j])) + v1) + v2) - v3
