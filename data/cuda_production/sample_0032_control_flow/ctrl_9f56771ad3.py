import warp as wp


@wp.kernel
def ctrl_9f56771ad3(b: wp.array[float], q: wp.array[wp.float32], data: wp.array[wp.float32], res: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    data_left = data[max(tid - 1, 0)]
    data_right = data[min(tid + 1, 999)]
    b_v = b[tid]
    q_v = q[tid]
    data_v = data[tid]
    v1 = wp.where(q_v >= b_v, -data_v, data_right)
    acc3 = float(0.0)
    c2 = int(0)
    while c2 < 6:
        acc3 = acc3 * 0.5 + (-data_left)
        c2 = c2 + 1
    r4 = float(0.0)
    if data_v / 4.0 < q_v:
        r4 = acc3 / (abs(q_v) + 1.0)
    else:
        r4 = v1
    res[tid] = r4 * b_v
