import warp as wp


@wp.kernel
def cond_8c975e33bf(data: wp.array(dtype=float), level: wp.array(dtype=int), weight: wp.array(dtype=float), clipped: wp.array(dtype=float), dist_out: wp.array(dtype=float)):
    tid = wp.tid()
    data_v = data[tid]
    level_val = int(0)
    if data_v > 1.0:
        level_val = 2
    elif data_v > 0.0:
        level_val = 1
    dist = wp.abs(data_v) * 2.0
    dist_out[tid] = dist
    wgt = float(0.0)
    if dist < 1.0:
        wgt = (4.0 + dist * dist * (3.0 * dist - 6.0)) / 6.0
    elif dist < 2.0:
        t = 2.0 - dist
        wgt = t * t * t / 6.0
    clipped_val = data_v
    if data_v > 0.5:
        clipped_val = 0.5 + 0.125 * (data_v - 0.5)
    elif data_v < -0.5:
        clipped_val = 0.125 * (data_v + 0.5) - 0.5
    level[tid] = level_val
    weight[tid] = wgt * data_v
    clipped[tid] = clipped_val
