import warp as wp


BIAS_61DCDA9DB0 = wp.constant(-0.125)

@wp.kernel
def cond_61dcda9db0(vals: wp.array2d(dtype=float), src: wp.array2d(dtype=float), res: wp.array2d(dtype=float)):
    i, j = wp.tid()
    src_left = src[i, wp.max(j - 1, 0)]
    src_right = src[i, wp.min(j + 1, 19)]
    vals_v = vals[i, j]
    src_v = src[i, j]
    r1 = min(BIAS_61DCDA9DB0, src_v)
    if src_right <= src_left:
        r1 = min(min(vals_v, src_right), -1.4375)
    elif src_right <= BIAS_61DCDA9DB0:
        r1 = 0.8125
    res[i, j] = r1
