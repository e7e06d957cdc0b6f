import warp as wp


@wp.kernel
def arith_2fe39dcf51(vals: wp.array3d(dtype=wp.float32), a: wp.array3d(dtype=wp.float32), q: wp.array3d(dtype=wp.float32), y: wp.array3d(dtype=wp.float32), res: wp.array3d(dtype=wp.float32), out: wp.array3d(dtype=wp.float32), res2: wp.array3d(dtype=wp.float32)):
    i, j, k = wp.tid()
    vals_v = vals[i, j, k]
    a_v = a[i, j, k]
    q_v = q[i, j, k]
    y_v = y[i, j, k]
    res[i, j, k] = ((0.4375 * vals_v - 2.0625) * vals_v + 2.4375) * vals_v - 1.5
    out[i, j, k] = a_v * a_v + q_v * q_v
    res2[i, j, k] = a_v * a_v + y_v * y_v
