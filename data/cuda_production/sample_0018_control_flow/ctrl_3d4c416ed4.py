import warp as wp


@wp.kernel
def ctrl_3d4c416ed4(u: wp.array[float], y: wp.array[float], num: int, root_out: wp.array[float], pos_sum_out: wp.array[float]):
    tid = wp.tid()
    if tid >= num:
        return
    u_v = u[tid]
    v1 = wp.abs(u_v)
    lo = float(0.0)
    hi = float(2.0)
    it = int(0)
    while it < 8:
        mid = 0.5 * (lo + hi)
        if mid * mid > v1:
            hi = mid
        else:
            lo = mid
        it += 1
    root_out[tid] = 0.5 * (lo + hi)
    pos_sum = float(0.0)
    for k in range(3):
        v = y[wp.clamp(tid + k - 1, 0, y.shape[0] - 1)]
        if v < 0.0:
            continue
        pos_sum += v
    pos_sum_out[tid] = pos_sum
