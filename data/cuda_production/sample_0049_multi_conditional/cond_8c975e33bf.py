import warp as wp


@wp.kernel
def cond_8c975e33bf(w: wp.array(dtype=float), dst: wp.array[wp.float32], result: wp.array(dtype=wp.float32), output: wp.array(dtype=float)):
    tid = wp.tid()
    w_v = w[tid]
    cx = (float(tid) + 0.5) * 0.015625
    r1 = w_v
    r2 = float(0.0)
    r3 = float(-1.125)
    if 1.3125 > w_v:
        r2 = w_v
        if not ((-1.0 > w_v) or (-1.0625 < w_v)):
            r3 = 1.25
        elif (0.875 <= w_v) and (0.4375 > cx):
            r1 = cx
        elif 0.875 <= w_v:
            r1 = r2
        elif -0.6875 <= w_v:
            r3 = w_v
            r1 = (cx / (abs(w_v) + 0.5)) + r2
    else:
        r3 = -w_v
        r2 = 0.625 * w_v
    dst[tid] = r1
    result[tid] = r2
    output[tid] = r3
