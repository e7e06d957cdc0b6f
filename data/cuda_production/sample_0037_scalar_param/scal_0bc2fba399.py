import warp as wp


@wp.kernel
def scal_0bc2fba399(inp: wp.array(dtype=float), q: wp.array[wp.float32], scale: wp.float32, gain: wp.float32, bias: wp.float32, n_iter: wp.int32, output: wp.array(dtype=wp.float32), res: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    inp_v = inp[tid]
    q_v = q[tid]
    acc1 = float(0.0)
    for s in range(n_iter):
        acc1 = acc1 + (inp_v * float(s))
    output[tid] = (((wp.abs(q_v) - scale) + gain) + bias) + acc1
    res[tid] = bias - q_v
