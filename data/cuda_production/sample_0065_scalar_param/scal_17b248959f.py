import warp as wp


@wp.kernel
def scal_17b248959f(x: wp.array2d(dtype=wp.float32), bias: wp.float32, offset: wp.float32, alpha: wp.float32, n_iter: int, weights: wp.array(dtype=wp.float32), y_out: wp.array2d(dtype=wp.float32), y_out2: wp.array2d(dtype=float)):
    i, j = wp.tid()
    x_v = x[i, j]
    acc1 = float(0.0)
    for s in range(n_iter):
        acc1 = acc1 + (weights[s] * x_v)
    y_out[i, j] = ((wp.abs(acc1) - bias) - offset) - alpha
    y_out2[i, j] = offset * (1.8125 * x_v)
