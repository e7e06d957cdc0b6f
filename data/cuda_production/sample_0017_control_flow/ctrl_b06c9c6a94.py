import warp as wp


@wp.kernel
def ctrl_b06c9c6a94(b: wp.array(dtype=float), out: wp.array(dtype=wp.float32), y_out: wp.array[wp.float32]):
    tid = wp.tid()
    b_v = b[tid]
    b_left = b[wp.max(tid - 1, 0)]
    b_right = b[wp.min(tid + 1, 127)]
    avg1 = (b_left + b_right) / 2.0
    acc3 = float(0.0)
    c2 = int(0)
    while c2 < 6:
        acc3 = acc3 + (b_v / (wp.abs(avg1) + 0.5))
        c2 = c2 + 1
    v4 = wp.where(wp.min(float(tid), avg1) > 1.5625, wp.abs(avg1), float(tid) / (abs(b_v) + 0.5))
    out[tid] = wp.abs(v4) - acc3
    y_out[tid] = wp.max(acc3, avg1)
