import warp as wp


@wp.kernel(enable_backward=False)
def cond_8c975e33bf(data: wp.array(dtype=float), label: wp.array(dtype=int), weight: wp.array(dtype=float), clipped: wp.array(dtype=float)):
    tid = wp.tid()
    data_v = data[tid]
    level = int(0)
    if data_v > 1.0:
        level = 3
    elif data_v > -0.5:
        level = 2
    elif data_v > -1.0:
        level = 1
    dist = wp.abs(data_v) * 2.0
    wgt = float(0.0)
    if dist < 1.0:
        wgt = (4.0 + dist * dist * (3.0 * dist - 6.0)) / 6.0
    elif dist < 2.0:
        t = 2.0 - dist
        wgt = t * t * t / 6.0
    clipped_val = data_v
    if data_v > 1.25:
        clipped_val = 1.25 + 0.125 * (data_v - 1.25)
    elif data_v < -1.25:
        clipped_val = 0.125 * (data_v + 1.25) - 1.25
    label[tid] = level
    weight[tid] = wgt
    clipped[tid] = clipped_val
