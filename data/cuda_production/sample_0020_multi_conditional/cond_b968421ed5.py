import warp as wp


@wp.kernel
def cond_b968421ed5(vals: wp.array2d(dtype=wp.float32), p: wp.array2d(dtype=wp.float32), a: wp.array2d(dtype=wp.float32), dst: wp.array2d(dtype=wp.float32), output: wp.array2d(dtype=float)):
    i, j = wp.tid()
    vals_v = vals[i, j]
    p_v = p[i, j]
    a_v = a[i, j]
    r1 = p_v
    r2 = a_v
    if p_v - a_v <= vals_v:
        r1 = a_v
    elif wp.abs(j) >= 9:
        r2 = (p_v * p_v) - vals_v
    elif vals_v + float(j) <= a_v:
        r1 = r2 / 4.0
    else:
        r1 = float(j) - 2.0
        r2 = a_v
    dst[i, j] = r1
    output[i, j] = r2
