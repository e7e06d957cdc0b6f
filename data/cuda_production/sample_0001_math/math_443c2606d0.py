import warp as wp


@wp.kernel
def math_443c2606d0(q: wp.array[float], inp: wp.array(dtype=wp.float32), y_out: wp.array(dtype=wp.float32), out: wp.array[float], out2: wp.array[float]):
    tid = wp.tid()
    inp_v = inp[tid]
    inp_left = inp[max(tid - 1, 0)]
    inp_right = inp[min(tid + 1, 63)]
    q_v = q[tid]
    lap1 = inp_left + inp_right - 2.0 * inp_v
    c2 = wp.clamp(inp_v, 0.0, 1.0)
    y_out[tid] = wp.pow(c2, 2.2)
    out[tid] = wp.ceil(q_v) - lap1
    out2[tid] = c2
