import warp as wp


@wp.kernel
def math_8f2b435239(y: wp.array2d(dtype=wp.float32), y_out: wp.array2d(dtype=wp.float32), res: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    y_v = y[i, j]
    fx = float(i) / 16.0
    y_out[i, j] = wp.log(1.0 + y_v * y_v)
    res[i, j] = y_v * wp.exp(-0.75 * fx)
