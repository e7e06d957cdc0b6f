import warp as wp


@wp.kernel
def scal_67ea0554bc(x: wp.array[float], w: wp.array[float], threshold: wp.float32, stride: int, out: wp.array(dtype=float), y_out: wp.array(dtype=float)):
    tid = wp.tid()
    v1 = -0.6875
    v2 = v1
    v3 = wp.min(wp.abs(float(stride)), x[tid] / 0.5) - (wp.abs(w[tid]) - v2)
    out[tid] = ((v2 / 4.0) / (wp.abs(max(v3, w[tid])) + 2.0)) + threshold
    y_out[tid] = wp.abs(v1 / (wp.abs(x[tid]) + 2.0))
