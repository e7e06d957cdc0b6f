import warp as wp


@wp.kernel
def scal_b6ecd6cdb6(y: wp.array(dtype=float), b: wp.array[wp.float32], alpha: wp.float32, bias: wp.float32, beta: wp.float32, n_iter: wp.int32, out: wp.array[float], dst: wp.array[float]):
    tid = wp.tid()
    v1 = y[tid]
    v2 = max(v1 * b[tid], -float(tid))
    v3 = v2
    acc4 = float(0.0)
    for s in range(n_iter):
        acc4 = acc4 + v3
    out[tid] = (((b[tid] - alpha) - bias) - beta) + acc4
    dst[tid] = wp.abs(wp.min(-(-0.875), wp.min(v2, b[tid])))
