import warp as wp


@wp.kernel(enable_backward=False)
def ctrl_c8abbc86c3(q: wp.array(dtype=float), first_index: wp.array(dtype=int), neg_sum_out: wp.array(dtype=float), c: wp.array(dtype=float), poly_out: wp.array(dtype=float), slope_out: wp.array(dtype=float)):
    tid = wp.tid()
    q_v = q[tid]
    first = int(8)
    for k in range(8):
        if q[wp.min(tid + k, q.shape[0] - 1)] > 1.0:
            first = k
            break
    first_index[tid] = first
    neg_sum = float(0.0)
    for k in range(3):
        v = q[wp.clamp(tid + k - 1, 0, q.shape[0] - 1)]
        if v >= 0.0:
            continue
        neg_sum = neg_sum + v
    neg_sum_out[tid] = neg_sum
    y = float(0.0)
    dy = float(0.0)
    for k in range(c.shape[0] - 1, -1, -1):
        dy = dy * q_v + y
        y = y * q_v + c[k]
    poly_out[tid] += y
    slope_out[tid] = dy
