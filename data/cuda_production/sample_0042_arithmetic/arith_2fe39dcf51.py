import warp as wp


@wp.kernel
def arith_2fe39dcf51(vals: wp.array3d(dtype=wp.float32), a: wp.array3d(dtype=wp.float32), q: wp.array3d(dtype=wp.float32), y: wp.array3d(dtype=float), output: wp.array3d(dtype=float), y_out: wp.array3d(dtype=wp.float32)):
    i, j, k = wp.tid()
    vals_v = vals[i, j, k]
    a_v = a[i, j, k]
    q_v = q[i, j, k]
    y_v = y[i, j, k]
    v1 = a_v - vals_v
    v2 = q_v / 1.5
    output[i, j, k] = (((v2 * y_v) * (vals_v / 2.0)) - (-v2)) - v1
    y_out[i, j, k] = (-q_v) + a_v
