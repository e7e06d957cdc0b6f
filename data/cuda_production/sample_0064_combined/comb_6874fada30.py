import warp as wp


@wp.kernel
def comb_6874fada30(inp: wp.array[float], q: wp.array[float], y: wp.array(dtype=wp.float32), y_out: wp.array[wp.float32]):
    tid = wp.tid()
    inp_left = inp[wp.max(tid - 1, 0)]
    inp_right = inp[wp.min(tid + 1, 63)]
    inp_v = inp[tid]
    q_v = q[tid]
    y_v = y[tid]
    v1 = wp.where(inp_v <= inp_right, q_v / (wp.abs(inp_left) + 2.0), y_v)
    acc3 = float(0.0)
    c2 = int(0)
    while c2 < 6:
        acc3 = acc3 + v1
        c2 = c2 + 1
    y_out[tid] = wp.exp(wp.sqrt(wp.abs(wp.floor(y_v)))) + acc3
