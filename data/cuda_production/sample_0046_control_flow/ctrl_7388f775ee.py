import warp as wp


@wp.kernel
def ctrl_7388f775ee(q: wp.array(dtype=wp.float32), root_out: wp.array[float]):
    tid = wp.tid()
    q_v = q[tid]
    v1 = wp.abs(q_v)
    lo2 = float(0.0)
    hi3 = float(2.0)
    it4 = int(0)
    while it4 < 6:
        mid = 0.5 * (lo2 + hi3)
        if mid * mid > v1:
            hi3 = mid
        else:
            lo2 = mid
        it4 += 1
    root_out[tid] = 0.5 * (lo2 + hi3)
