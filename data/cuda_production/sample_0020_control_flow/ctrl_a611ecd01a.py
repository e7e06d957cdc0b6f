import warp as wp


@wp.kernel
def ctrl_a611ecd01a(q: wp.array[wp.float32], series: wp.array[wp.float32], coef: wp.array[wp.float32], poly_out: wp.array[wp.float32], slope_out: wp.array[wp.float32], count_out: wp.array[wp.int32]):
    tid = wp.tid()
    q_v = q[tid]
    term = float(1.0)
    total = float(1.0)
    for k in range(6):
        term *= q_v / float(k + 1)
        total = total + term
    series[tid] = total
    y = float(0.0)
    dy = float(0.0)
    for k in range(6):
        dy = dy * q_v + y
        y = y * q_v + coef[k]
    poly_out[tid] = y
    slope_out[tid] = dy
    count = int(0)
    for k in range(3):
        if q[wp.clamp(tid + k - 1, 0, q.shape[0] - 1)] >= 0.5:
            count += 1
    count_out[tid] = count
