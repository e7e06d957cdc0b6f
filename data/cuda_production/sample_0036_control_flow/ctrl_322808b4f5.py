import warp as wp


@wp.kernel
def ctrl_322808b4f5(data: wp.array2d(dtype=wp.float32), neg_sum_out: wp.array2d(dtype=wp.float32), window_lo: wp.array2d(dtype=wp.float32), window_hi: wp.array2d(dtype=wp.float32), first_index: wp.array2d(dtype=wp.int32)):
    i, j = wp.tid()
    data_v = data[i, j]
    lo = data_v
    hi = data_v
    neg_sum = float(0.0)
    for k in range(-2, 3):
        v = data[i, wp.clamp(j + k, 0, data.shape[1] - 1)]
        if v < 0.0:
            neg_sum += v
        lo = wp.min(lo, v)
        hi = wp.max(hi, v)
    neg_sum_out[i, j] = neg_sum
    window_lo[i, j] = lo
    window_hi[i, j] = hi
    first = int(5)
    for k in range(5):
        if data[i, wp.min(j + k, data.shape[1] - 1)] > 0.5:
            first = k
            break
    first_index[i, j] = first
