import warp as wp


@wp.kernel
def scal_8d9ee0a365(data: wp.array(dtype=float), weight: wp.array(dtype=float), threshold: float, masked: wp.array(dtype=float)):
    tid = wp.tid()
    data_v = data[tid]
    weight_v = weight[tid]
    pre = weight_v * data_v
    kept = wp.where(pre > threshold, pre, 0.0)
    masked[tid] = kept
