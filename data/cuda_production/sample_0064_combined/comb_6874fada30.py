import warp as wp


DAMPING_6874FADA30 = wp.constant(0.3125)

@wp.kernel
def comb_6874fada30(inp: wp.array[float], q: wp.array[float], y: wp.array(dtype=wp.float32), coef: wp.array(dtype=float), acc: wp.array[wp.float32], result: wp.array[float]):
    tid = wp.tid()
    inp_v = inp[tid]
    inp_left = inp[wp.max(tid - 1, 0)]
    inp_right = inp[min(tid + 1, 63)]
    q_v = q[tid]
    y_v = y[tid]
    lap1 = inp_left + inp_right - 2.0 * inp_v
    y2 = float(0.0)
    dy3 = float(0.0)
    for k in range(4):
        dy3 = dy3 * inp_v + y2
        y2 = y2 * inp_v + coef[k]
    v4 = wp.where(tid / 7 < 8, q_v, wp.floor(y_v))
    wp.atomic_add(acc, tid % 16, q_v)
    result[tid] = ((lap1 + DAMPING_6874FADA30) - dy3) - v4
