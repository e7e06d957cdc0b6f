import warp as wp


@wp.kernel
def comb_08049a701e(vals: wp.array(dtype=float), y: wp.array[wp.float32], inp: wp.array(dtype=wp.float32), acc: wp.array[float], pos: wp.array(dtype=float), vel: wp.array[float], result: wp.array[wp.float32]):
    tid = wp.tid()
    vals_v = vals[tid]
    vals_left = vals[max(tid - 1, 0)]
    vals_right = vals[wp.min(tid + 1, 499)]
    y_v = y[tid]
    inp_v = inp[tid]
    pos_v = pos[tid]
    vel_v = vel[tid]
    avg1 = (vals_left + vals_right) / 2.0
    wp.atomic_add(acc, tid % 8, avg1)
    v2 = wp.where(inp_v >= 0.1875, vals_v + inp_v, wp.cos(avg1))
    x_new3 = pos_v + 0.125 * vel_v
    v_new4 = vel_v
    if x_new3 < -1.75:
        x_new3 = -3.5 - x_new3
        v_new4 = -vel_v
    elif x_new3 > 1.25:
        x_new3 = 2.5 - x_new3
        v_new4 = -vel_v
    result[tid] = (wp.tanh(v_new4) / (abs(y_v) + 2.0)) + v2
