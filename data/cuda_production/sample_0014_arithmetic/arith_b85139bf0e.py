import warp as wp


@wp.kernel
def arith_b85139bf0e(y: wp.array2d(dtype=wp.float32), output: wp.array2d(dtype=wp.float32), y_out: wp.array2d(dtype=float), res: wp.array2d(dtype=float)):
    i, j = wp.tid()
    y_v = y[i, j]
    fx = float(i) / 16.0
    d1 = y_v - fx
    t2 = wp.clamp(d1, 0.0, 1.0)
    output[i, j] = -0.875 * y_v - 0.9375
    y_out[i, j] = d1 * d1
    res[i, j] = t2 * t2 * (3.0 - 2.0 * t2)
