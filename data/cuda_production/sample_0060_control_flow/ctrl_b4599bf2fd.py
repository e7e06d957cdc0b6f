import warp as wp


@wp.kernel
def ctrl_b4599bf2fd(src: wp.array[float], b: wp.array(dtype=wp.float32), kernel_w: wp.array[wp.float32], filtered: wp.array(dtype=wp.float32), neg_sum_out: wp.array[wp.float32], poly: wp.array(dtype=float), poly_out: wp.array[wp.float32], slope_out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    b_v = b[tid]
    acc1 = float(0.0)
    for k in range(-4, 5):
        acc1 = acc1 + kernel_w[k + 4] * b[wp.clamp(tid + k, 0, 255)]
    filtered[tid] = acc1
    neg_sum2 = float(0.0)
    for k in range(7):
        v = src[wp.clamp(tid + k - 3, 0, 255)]
        if v >= 0.0:
            continue
        neg_sum2 = neg_sum2 + v
    neg_sum_out[tid] = neg_sum2
    y3 = float(0.0)
    dy4 = float(0.0)
    for k in range(5):
        dy4 = dy4 * b_v + y3
        y3 = y3 * b_v + poly[k]
    poly_out[tid] = y3
    slope_out[tid] = dy4
