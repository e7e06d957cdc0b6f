import warp as wp


@wp.func
def comb_b0c6d7d0da_fn0(x: float, y: float) -> float:
    return wp.atan2(-2.4375, -2.4375) + (x + (-1.8125))

@wp.kernel
def comb_b0c6d7d0da(b: wp.array[float], m: int, res: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    acc1 = float(0.0)
    for k in range(m):
        if wp.clamp(1.875, -0.5, 2.0) < -1.0:
            break
        acc1 += wp.pow(wp.abs(wp.clamp(b[tid], -0.5, 1.0)) + 1.0, 1.5)
    acc3 = float(0.0)
    c2 = int(0)
    while c2 < 6:
        acc3 = acc3 + (float(m) + acc1)
        c2 = c2 + 1
    v4 = comb_b0c6d7d0da_fn0(wp.clamp(b[tid] + acc1, -4.0, 4.0), wp.clamp(b[tid] + acc1, -4.0, 4.0))
    res[tid] = acc3 + v4
