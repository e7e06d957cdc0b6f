import warp as wp


SCALE_40D958E3F3 = wp.constant(0.5)

@wp.kernel
def scal_40d958e3f3(src: wp.array2d(dtype=float), alpha: float, eps: float, n_iter: int, weights: wp.array(dtype=wp.float32), result: wp.array2d(dtype=float)):
    i, j = wp.tid()
    src_v = src[i, j]
    acc1 = float(0.0)
    for s in range(n_iter):
        acc1 += weights[s] * src_v
    result[i, j] = ((acc1 + alpha) - eps) - SCALE_40D958E3F3
