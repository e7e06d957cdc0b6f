import warp as wp


@wp.kernel
def scal_17b248959f(x: wp.array2d(dtype=wp.float32), threshold: wp.float32, output: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    x_v = x[i, j]
    excess = wp.max(x_v - threshold, 0.0)
    output[i, j] = excess
