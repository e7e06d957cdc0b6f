import warp as wp


@wp.kernel
def cond_61dcda9db0(vals: wp.array2d(dtype=float), src: wp.array2d(dtype=float), y_out: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    src_down = src[min(i + 1, 7), j]
    src_left = src[i, wp.max(j - 1, 0)]
    vals_v = vals[i, j]
    src_v = src[i, j]
    r1 = float(0.0)
    if src_left >= vals_v:
        r1 = src_down
    else:
        r1 = src_v
    y_out[i, j] = r1
