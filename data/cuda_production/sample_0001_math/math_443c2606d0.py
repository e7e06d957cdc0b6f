import warp as wp


@wp.kernel
def math_443c2606d0(q: wp.array[float], inp: wp.array(dtype=wp.float32), res: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    inp_v = inp[tid]
    inp_left = inp[max(tid - 1, 0)]
    inp_right = inp[min(tid + 1, 63)]
    q_v = q[tid]
    lap1 = inp_left + inp_right - 2.0 * inp_v
    res[tid] = (inp_v / (1.0 + wp.abs(inp_v))) + lap1
    out[tid] = wp.pow(wp.abs(-q_v) + 1.0, 3.0)
