import warp as wp


@wp.kernel
def arith_64c0f1ebd3(x: wp.array2d(dtype=wp.float32), src: wp.array2d(dtype=float), y_out: wp.array2d(dtype=wp.float32), y_out2: wp.array2d(dtype=float)):
    i, j = wp.tid()
    x_v = x[i, j]
    src_v = src[i, j]
    y_out[i, j] = -((-src_v) / 1.5)
    y_out2[i, j] = wp.abs(x_v / 1.5)
