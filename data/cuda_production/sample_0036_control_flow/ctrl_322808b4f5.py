import warp as wp


@wp.kernel
def ctrl_322808b4f5(data: wp.array2d(dtype=wp.float32), neg_mean: wp.array2d(dtype=wp.float32), first_index: wp.array2d(dtype=wp.int32), window_lo: wp.array2d(dtype=wp.float32), window_hi: wp.array2d(dtype=wp.float32), swing: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    data_v = data[i, j]
    neg_sum = float(0.0)
    kept = int(0)
    for k in range(5):
        v = data[i, wp.clamp(j + k - 2, 0, data.shape[1] - 1)]
        if v >= 0.0:
            continue
        neg_sum = neg_sum + v
        kept += 1
    neg_mean[i, j] = neg_sum / float(wp.max(kept, 1))
    first = int(5)
    for k in range(5):
        if data[i, wp.min(j + k, data.shape[1] - 1)] > 0.5:
            first = k
            break
    first_index[i, j] = first
    lo = data_v
    hi = data_v
    for k in range(-2, 3):
        v = data[i, wp.clamp(j + k, 0, data.shape[1] - 1)]
        lo = wp.min(lo, v)
        hi = wp.max(hi, v)
    window_lo[i, j] = lo
    window_hi[i, j] = hi
    swing[i, j] = hi - lo
