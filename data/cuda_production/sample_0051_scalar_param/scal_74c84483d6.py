import warp as wp


@wp.kernel
def scal_74c84483d6(src: wp.array(dtype=float), threshold: float, n_iter: int, sqrt_out: wp.array(dtype=float)):
    tid = wp.tid()
    src_v = src[tid]
    kept = wp.where(src_v > threshold, src_v, 0.0)
    a = 1.0 + kept * kept
    root = a
    for s in range(n_iter):
        root = 0.5 * (root + a / root)
    sqrt_out[tid] = root
