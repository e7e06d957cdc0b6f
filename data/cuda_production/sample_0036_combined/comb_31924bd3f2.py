import warp as wp


BIAS_31924BD3F2 = wp.constant(-0.375)

@wp.kernel
def comb_31924bd3f2(vals: wp.array[float], indices: wp.array(dtype=wp.int32), coef: wp.array(dtype=wp.float32), acc: wp.array(dtype=float), res: wp.array[wp.float32]):
    tid = wp.tid()
    vals_v = vals[tid]
    vals_left = vals[max(tid - 1, 0)]
    vals_right = vals[wp.min(tid + 1, 999)]
    indices_v = indices[tid]
    vals_g = vals[indices_v]
    grad1 = 0.5 * (vals_right - vals_left)
    f2 = 0.75 * vals_v + 0.25 * vals_g
    acc4 = float(0.0)
    c3 = int(0)
    while c3 < 4:
        acc4 = acc4 + (coef[c3] * wp.pow(wp.abs(grad1) + 1.0, 0.5))
        c3 = c3 + 1
    wp.atomic_add(acc, tid % 16, vals_v)
    res[tid] = (((wp.min(vals_g, vals_v) / 8.0) - BIAS_31924BD3F2) + f2) - acc4
