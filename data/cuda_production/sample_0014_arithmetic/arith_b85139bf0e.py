import warp as wp


@wp.kernel
def arith_b85139bf0e(y: wp.array2d(dtype=wp.float32), result: wp.array2d(dtype=float), y_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    y_v = y[i, j]
    result[i, j] = (-y_v) + 1.5625
    y_out[i, j] = (1.5625 - y_v) / 10.0
