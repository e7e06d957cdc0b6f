import warp as wp


@wp.kernel
def math_8f2b435239(y: wp.array2d(dtype=wp.float32), res: wp.array2d(dtype=float)):
    i, j = wp.tid()
    y_v = y[i, j]
    v1 = wp.floor(float(i) - y_v)
    v2 = wp.atan2(v1 - y_v, wp.floor(y_v))
    res[i, j] = wp.floor(wp.floor(v1)) - v2
