import warp as wp


@wp.kernel
def cond_8c975e33bf(data: wp.array(dtype=float), pos: wp.array(dtype=wp.float32), vel: wp.array(dtype=wp.float32), lower: float, upper: float, level: wp.array(dtype=wp.int32), weight: wp.array[float], pos_out: wp.array[wp.float32], vel_out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    data_v = data[tid]
    pos_v = pos[tid]
    vel_v = vel[tid]
    level2 = int(0)
    if data_v > 1.0:
        level2 = 2
    elif data_v > 0.0:
        level2 = 1
    dist3 = wp.abs(data_v) * 2.0
    wgt4 = float(0.0)
    if dist3 < 1.0:
        wgt4 = (4.0 + dist3 * dist3 * (3.0 * dist3 - 6.0)) / 6.0
    elif dist3 < 2.0:
        t = 2.0 - dist3
        wgt4 = t * t * t / 6.0
    x_new5 = pos_v + 0.25 * vel_v
    v_new6 = vel_v
    if x_new5 < lower:
        x_new5 = 2.0 * lower - x_new5
        v_new6 = -0.5 * vel_v
    elif x_new5 > upper:
        x_new5 = 2.0 * upper - x_new5
        v_new6 = -0.5 * vel_v
    level[tid] = level2
    weight[tid] = wgt4
    pos_out[tid] = x_new5
    vel_out[tid] = v_new6
