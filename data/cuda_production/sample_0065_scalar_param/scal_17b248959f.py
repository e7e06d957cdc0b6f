import warp as wp


@wp.kernel
def scal_17b248959f(x: wp.array2d(dtype=wp.float32), offset: wp.float32, y_out: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    x_v = x[i, j]
    centered1 = (-x_v) - offset
    y_out[i, j] = centered1
