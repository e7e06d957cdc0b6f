import warp as wp


@wp.kernel
def scal_74c84483d6(src: wp.array(dtype=float), b: wp.array[float], alpha: float, n_iter: wp.int32, out: wp.array[wp.float32]):
    tid = wp.tid()
    src_v = src[tid]
    b_v = b[tid]
    v1 = ((b_v / (wp.abs(src_v) + 0.5)) / (wp.abs(src_v) + 2.0)) * max(src_v, -b_v)
    v2 = v1 * v1
    v3 = max(-1.75, v2)
    acc4 = float(0.0)
    for s in range(n_iter):
        acc4 = acc4 + 0.25 * (v1 * b_v - acc4)
    out[tid] = ((acc4 * src_v) + alpha) - v3
