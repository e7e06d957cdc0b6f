import warp as wp


@wp.kernel(enable_backward=False)
def ctrl_322808b4f5(data: wp.array2d(dtype=wp.float32), neg_mean: wp.array2d(dtype=wp.float32), window_max: wp.array2d(dtype=wp.float32), window: wp.int32, first_index: wp.array2d(dtype=wp.int32)):
    i, j = wp.tid()
    best = data[i, j]
    neg_sum = float(0.0)
    kept = int(0)
    for k in range(5):
        v = data[i, wp.clamp(j + k - 2, 0, data.shape[1] - 1)]
        if v >= 0.0:
            continue
        neg_sum = neg_sum + v
        kept += 1
    neg_mean[i, j] = neg_sum / float(wp.max(kept, 1))
    for k in range(1, 4):
        v = data[i, wp.min(j + k, data.shape[1] - 1)]
        if v > best:
            best = v
    window_max[i, j] = best
    first = window
    for k in range(window):
        if data[i, wp.min(j + k, data.shape[1] - 1)] < -1.0:
            first = k
            break
    first_index[i, j] = first
