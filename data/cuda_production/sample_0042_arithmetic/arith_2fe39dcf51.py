import warp as wp


@wp.kernel
def arith_2fe39dcf51(vals: wp.array3d(dtype=wp.float32), a: wp.array3d(dtype=wp.float32), y: wp.array3d(dtype=wp.float32), res: wp.array3d(dtype=wp.float32), res2: wp.array3d(dtype=wp.float32), out: wp.array3d(dtype=wp.float32)):
    i, j, k = wp.tid()
    vals_v = vals[i, j, k]
    a_v = a[i, j, k]
    y_v = y[i, j, k]
    res[i, j, k] = ((0.4375 * vals_v - 2.0625) * vals_v + 2.4375) * vals_v - 1.5
    res2[i, j, k] = vals_v * vals_v + a_v * a_v
    out[i, j, k] = vals_v * vals_v + y_v * y_v
