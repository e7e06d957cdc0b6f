import warp as wp


@wp.kernel
def math_8f2b435239(y: wp.array2d(dtype=wp.float32), res: wp.array2d(dtype=wp.float32), result: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    y_v = y[i, j]
    v1 = wp.atan2(y_v, wp.floor((-2.4375) - y_v))
    res[i, j] = wp.atan2(-2.125, y_v) + v1
    result[i, j] = wp.floor(y_v)
