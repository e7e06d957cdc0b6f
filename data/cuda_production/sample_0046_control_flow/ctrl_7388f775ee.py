import warp as wp


@wp.kernel(module="unique")
def ctrl_7388f775ee(q: wp.array(dtype=wp.float32), iterations: wp.int32, root_out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    q_v = q[tid]
    v = wp.abs(q_v)
    lo = float(0.0)
    hi = float(2.0)
    it = int(0)
    while it < iterations:
        mid = 0.5 * (lo + hi)
        if mid * mid * mid > v:
            hi = mid
        else:
            lo = mid
        it += 1
    root_out[tid] = 0.5 * (lo + hi)
