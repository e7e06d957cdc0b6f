import warp as wp


@wp.kernel
def cond_5aa15ea445(data: wp.array(dtype=wp.float32), weight: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    data_v = data[tid]
    dist = wp.abs(data_v + 0.5)
    wgt = float(0.0)
    if dist < 1.0:
        wgt = (4.0 + dist * dist * (3.0 * dist - 6.0)) / 6.0
    elif dist < 2.0:
        t = 2.0 - dist
        wgt = t * t * t / 6.0
    weight[tid] = wgt
