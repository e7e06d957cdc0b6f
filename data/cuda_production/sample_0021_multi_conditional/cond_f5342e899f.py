import warp as wp


@wp.kernel
def cond_f5342e899f(a: wp.array(dtype=float), b: wp.array(dtype=wp.float32), result: wp.array[wp.float32], out: wp.array[wp.float32], result2: wp.array[float]):
    tid = wp.tid()
    b_left = b[max(tid - 1, 0)]
    b_right = b[min(tid + 1, 99)]
    a_v = a[tid]
    b_v = b[tid]
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
        elif a_v * b_right > b_v:
            r1 = float(tid)
    else:
        r3 = r1
        r1 = wp.abs(a_v) / (abs(wp.max(b_v, -0.6875)) + 0.5)
        r2 = -1.4375
    result[tid] = r1
    out[tid] = r2
    result2[tid] = r3
