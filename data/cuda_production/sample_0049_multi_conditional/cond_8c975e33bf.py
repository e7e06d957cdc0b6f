import warp as wp


@wp.kernel
def cond_8c975e33bf(w: wp.array(dtype=float), output: wp.array(dtype=wp.float32), y_out: wp.array(dtype=float), result: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    w_v = w[tid]
    r1 = w_v
    r2 = -w_v
    r3 = float(0.0)
    if w_v * (-1.6875) >= 1.3125:
        r1 = wp.max(r1, w_v)
        r2 = 0.6875
        r3 = w_v
    else:
        r3 = 1.1875
        r1 = r2
        r2 = w_v + (-1.1875)
    output[tid] = r1
    y_out[tid] = r2
    result[tid] = r3
