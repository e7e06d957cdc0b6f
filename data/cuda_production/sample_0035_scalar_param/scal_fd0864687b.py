import warp as wp


@wp.kernel
def scal_fd0864687b(vals: wp.array2d(dtype=float), q: wp.array2d(dtype=float), gain: float, scale: float, eps: float, result: wp.array2d(dtype=wp.float32), output: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    vals_v = vals[i, j]
    q_v = q[i, j]
    result[i, j] = (((1.9375 - q_v) + gain) - scale) + eps
    output[i, j] = 0.5 * vals_v
