import warp as wp


@wp.kernel
def scal_40d958e3f3(x: wp.array2d(dtype=float), hi: float, lo: float, n_iter: int, sqrt_out: wp.array2d(dtype=float), limited_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    d = 0.75 * x[i, j]
    limited = wp.clamp(d, lo, hi)
    limited_out[i, j] = limited
    a = 1.0 + limited * limited
    root = a
    for s in range(n_iter):
        root = 0.5 * (root + a / root)
    sqrt_out[i, j] = root
