import warp as wp


@wp.kernel
def arith_b85139bf0e(y: wp.array2d(dtype=wp.float32), output: wp.array2d(dtype=wp.float32), y_out: wp.array2d(dtype=wp.float32), res: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    y_v = y[i, j]
    fx = float(i) / 16.0
    d = y_v - fx
    t = wp.clamp(d, 0.0, 1.0)
    output[i, j] = -0.875 * y_v - 0.9375
    y_out[i, j] = d * d
    res[i, j] = t * t * (3.0 - 2.0 * t)
