import warp as wp


@wp.kernel
def cond_f5342e899f(a: wp.array(dtype=float), b: wp.array(dtype=wp.float32), result: wp.array(dtype=float), res: wp.array[float], out: wp.array[wp.float32]):
    tid = wp.tid()
    b_left = b[max(tid - 1, 0)]
    b_right = b[min(tid + 1, 99)]
    a_v = a[tid]
    r1 = b_right
    r2 = a_v
    r3 = float(0.0)
    if b_left + b_right <= -0.4375:
        r3 = float(tid)
        if a_v <= b_left:
            r2 = float(tid)
            r1 = a_v
        elif -0.125 > a_v:
            r2 = a_v
        elif b_left * float(tid) >= a_v:
            r2 = b_left
            r1 = b_right
    else:
        r3 = b_right / (wp.abs(b_left) + 0.5)
    result[tid] = r1
    res[tid] = r2
    out[tid] = r3
