import warp as wp


WEIGHT_20B84FA030 = wp.constant(-0.1875)

@wp.kernel
def cond_20b84fa030(p: wp.array(dtype=wp.float32), q: wp.array(dtype=wp.float32), dst: wp.array[float]):
    tid = wp.tid()
    p_left = p[wp.max(tid - 1, 0)]
    p_right = p[wp.min(tid + 1, 999)]
    p_v = p[tid]
    q_v = q[tid]
    r1 = float(0.0)
    if p_right < p_v:
        r1 = p_left
    elif -p_left < WEIGHT_20B84FA030:
        r1 = q_v
    else:
        r1 = p_left / (wp.abs(q_v) + 1.0)
    dst[tid] = r1
