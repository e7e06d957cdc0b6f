import warp as wp


@wp.kernel
def arith_2fe39dcf51(vals: wp.array3d(dtype=wp.float32), q: wp.array3d(dtype=wp.float32), y: wp.array3d(dtype=float), out: wp.array3d(dtype=float)):
    i, j, k = wp.tid()
    vals_v = vals[i, j, k]
    q_v = q[i, j, k]
    y_v = y[i, j, k]
    v1 = (q_v + vals_v) / (abs(y_v / 8.0) + 2.0)
    out[i, j, k] = (v1 * (-2.5)) - (vals_v / 2.0)
