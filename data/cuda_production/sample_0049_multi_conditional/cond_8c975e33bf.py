import warp as wp


@wp.kernel
def cond_8c975e33bf(w: wp.array(dtype=float), dst: wp.array[wp.float32], result: wp.array(dtype=wp.float32), output: wp.array(dtype=float)):
    tid = wp.tid()
    w_v = w[tid]
    cx = (float(tid) + 0.5) * 0.015625
    r1 = w_v
    r2 = float(0.0)
    r3 = float(-1.125)
    if w_v < 1.3125:
        r2 = w_v
        if not ((w_v < -1.0) or (w_v > -1.0625)):
            r3 = 1.25
        elif (w_v >= 0.875) and (cx < 0.4375):
            r1 = cx
        elif w_v >= 0.875:
            r1 = r2
        elif w_v >= -0.6875:
            r3 = w_v
            r1 = (cx / (abs(w_v) + 0.5)) + r2
    else:
        r3 = -w_v
        r2 = 0.625 * w_v
    dst[tid] = r1
    result[tid] = r2
    output[tid] = r3
