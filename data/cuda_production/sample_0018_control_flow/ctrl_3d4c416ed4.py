import warp as wp


@wp.kernel
def ctrl_3d4c416ed4(y: wp.array(dtype=wp.float32), is_active: wp.array(dtype=wp.int32), neg_sum_out: wp.array(dtype=wp.float32), kernel_w: wp.array(dtype=wp.float32), filtered: wp.array(dtype=wp.float32), window: wp.int32, first_index: wp.array(dtype=wp.int32)):
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
    for k in range(-1, 2):
        acc = acc + kernel_w[k + 1] * y[wp.clamp(tid + k, 0, y.shape[0] - 1)]
    filtered[tid] = acc
    first = window
    for k in range(window):
        if y[wp.min(tid + k, y.shape[0] - 1)] > 1.0:
            first = k
            break
    first_index[tid] = first
