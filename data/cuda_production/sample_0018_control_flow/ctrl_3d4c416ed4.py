import warp as wp


@wp.kernel
def ctrl_3d4c416ed4(y: wp.array(dtype=wp.float32), is_active: wp.array(dtype=wp.int32), neg_sum_out: wp.array(dtype=wp.float32), taps: wp.array(dtype=wp.float32), filtered: wp.array(dtype=wp.float32), first_index: wp.array(dtype=wp.int32)):
    tid = wp.tid()
    if is_active[tid] == 0:
        return
    neg_sum = float(0.0)
    for k in range(7):
        v = y[wp.clamp(tid + k - 3, 0, y.shape[0] - 1)]
        if v > 0.0:
            continue
        neg_sum = neg_sum + v
    neg_sum_out[tid] = neg_sum
    acc = float(0.0)
    for k in range(5):
        j = wp.clamp(tid + k - 2, 0, y.shape[0] - 1)
        acc = acc + taps[k] * y[j]
    filtered[tid] = acc
    first = int(8)
    for k in range(8):
        if y[wp.min(tid + k, y.shape[0] - 1)] > 0.5:
            first = k
            break
    first_index[tid] = first
