import warp as wp


@wp.kernel
def ctrl_7388f775ee(q: wp.array(dtype=wp.float32), root_out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    v = wp.abs(q[tid])
    lo = float(0.0)
    hi = float(2.0)
    while hi - lo > 0.03125:
        mid = 0.5 * (lo + hi)
        if mid * mid > v:
            hi = mid
        else:
            lo = mid
    root_out[tid] = 0.5 * (lo + hi)
