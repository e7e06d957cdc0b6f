import warp as wp


@wp.kernel
def ctrl_a9ba210464(x: wp.array(dtype=float), idx: wp.array[int], steps: int, res: wp.array(dtype=float)):
    tid = wp.tid()
    idx_v = idx[tid]
    x_g = x[idx_v]
    x_v = x[tid]
    acc1 = float(0.0)
    for k in range(steps):
        acc1 = acc1 + x_g
    v2 = wp.where(5 < tid, wp.min(acc1, x_v), 2.3125 * x_v)
    res[tid] = (float(steps) - x_v) + v2
