import warp as wp


@wp.kernel
def cond_e611542dd2(u: wp.array[float], res: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    u_v = u[tid]
    r1 = float(0.0)
    if u_v > -1.0:
        r1 = float(tid) + 1.375
    elif max(tid, 8) != 8:
        r1 = u_v
    elif (6 >= tid) and (u_v <= -1.5625):
        r1 = u_v
    else:
        r1 = 0.75
    res[tid] = r1
