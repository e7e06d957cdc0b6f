import warp as wp


@wp.kernel
def cond_20b84fa030(p: wp.array(dtype=wp.float32), a: wp.array[float], out: wp.array(dtype=float)):
    tid = wp.tid()
    p_left = p[wp.max(tid - 1, 0)]
    p_v = p[tid]
    a_v = a[tid]
    r1 = float(0.0)
    diff2 = p_v - a_v
    if diff2 <= 0.0:
        r1 = p_v
    elif diff2 <= 1.0:
        r1 = p_left
    else:
        r1 = a_v
    out[tid] = r1
