import warp as wp


@wp.kernel
def arith_b85139bf0e(y: wp.array2d(dtype=wp.float32), y_out: wp.array2d(dtype=wp.float32), res: wp.array2d(dtype=wp.float32), y_out2: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    y_v = y[i, j]
    cx = (float(i) + 0.5) * 0.5
    t = wp.clamp(y_v, 0.0, 1.0)
    y_out[i, j] = -0.875 * y_v - 0.9375
    res[i, j] = t * t * (3.0 - 2.0 * t)
    y_out2[i, j] = y_v + 0.875 * (cx - y_v)
