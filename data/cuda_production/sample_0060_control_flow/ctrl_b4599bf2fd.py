import warp as wp


@wp.kernel
def ctrl_b4599bf2fd(b: wp.array(dtype=wp.float32), kernel_w: wp.array(dtype=wp.float32), filtered: wp.array(dtype=wp.float32), neg_sum_out: wp.array(dtype=wp.float32), poly: wp.array(dtype=wp.float32), poly_out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    b_v = b[tid]
    acc = float(0.0)
    for k in range(-4, 5):
        acc = acc + kernel_w[k + 4] * b[wp.clamp(tid + k, 0, b.shape[0] - 1)]
    filtered[tid] = acc
    neg_sum = float(0.0)
    for k in range(7):
        v = b[wp.clamp(tid + k - 3, 0, b.shape[0] - 1)]
        if v >= 0.0:
            continue
        neg_sum = neg_sum + v
    neg_sum_out[tid] = neg_sum
    y = float(0.0)
    for k in range(5):
        y = y * b_v + poly[k]
    poly_out[tid] = y
