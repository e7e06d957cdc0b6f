import warp as wp


@wp.kernel
def arith_2fe39dcf51(vals: wp.array3d(dtype=wp.float32), a: wp.array3d(dtype=wp.float32), q: wp.array3d(dtype=wp.float32), y: wp.array3d(dtype=wp.float32), energy: wp.array3d(dtype=wp.float32), interp: wp.array3d(dtype=wp.float32), sum_sq: wp.array3d(dtype=wp.float32), smoothing: wp.float32):
    i, j, k = wp.tid()
    vals_v = vals[i, j, k]
    a_v = a[i, j, k]
    q_v = q[i, j, k]
    energy[i, j, k] = vals_v * vals_v + q_v * q_v
    interp[i, j, k] = wp.lerp(interp[i, j, k], vals_v + 0.25 * (y[i, j, k] - vals_v), smoothing)
    sum_sq[i, j, k] = vals_v * vals_v + a_v * a_v
