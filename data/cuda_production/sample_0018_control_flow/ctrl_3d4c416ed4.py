import warp as wp


@wp.kernel
def ctrl_3d4c416ed4(u: wp.array[float], y: wp.array(dtype=wp.float32), num: int, root_out: wp.array[wp.float32], pos_sum_out: wp.array(dtype=float)):
    tid = wp.tid()
    if tid >= num:
        return
    u_v = u[tid]
    v1 = wp.abs(u_v)
    lo2 = float(0.0)
    hi3 = float(2.0)
    it4 = int(0)
    while it4 < 8:
        mid = 0.5 * (lo2 + hi3)
        if mid * mid > v1:
            hi3 = mid
        else:
            lo2 = mid
        it4 += 1
    root_out[tid] = 0.5 * (lo2 + hi3)
    pos_sum5 = float(0.0)
    for k in range(3):
        v = y[wp.clamp(tid + k - 1, 0, 63)]
        if v < 0.0:
            continue
        pos_sum5 += v
    pos_sum_out[tid] = pos_sum5
