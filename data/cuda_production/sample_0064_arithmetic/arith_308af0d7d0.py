import warp as wp


@wp.kernel
def arith_308af0d7d0(y: wp.array(dtype=float), p: wp.array(dtype=float), rel_change: wp.array(dtype=float), sq_err: wp.array(dtype=float), norm_diff: wp.array(dtype=float)):
    tid = wp.tid()
    y_v = y[tid]
    y_left = y[wp.max(tid - 1, 0)]
    y_right = y[wp.min(tid + 1, y.shape[0] - 1)]
    p_v = p[tid]
    avg = (y_left + y_right) / 2.0
    d = p_v - avg
    rel_change[tid] = (p_v - y_v) / (wp.abs(y_v) + 0.25)
    sq_err[tid] = d * d
    norm_diff[tid] = (p_v - y_v) / (wp.abs(p_v) + wp.abs(y_v) + 0.5)
