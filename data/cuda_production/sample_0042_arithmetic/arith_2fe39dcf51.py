import warp as wp


@wp.kernel
def arith_2fe39dcf51(vals: wp.array3d(dtype=wp.float32), a: wp.array3d(dtype=wp.float32), q: wp.array3d(dtype=wp.float32), y: wp.array3d(dtype=wp.float32), energy: wp.array3d(dtype=wp.float32), blended: wp.array3d(dtype=wp.float32), sq_err: wp.array3d(dtype=wp.float32)):
    i, j, k = wp.tid()
    vals_v = vals[i, j, k]
    a_v = a[i, j, k]
    q_v = q[i, j, k]
    y_v = y[i, j, k]
    d = vals_v - y_v
    energy[i, j, k] = vals_v * vals_v + q_v * q_v
    blended[i, j, k] = vals_v + 0.625 * (a_v - vals_v)
    sq_err[i, j, k] = d * d
