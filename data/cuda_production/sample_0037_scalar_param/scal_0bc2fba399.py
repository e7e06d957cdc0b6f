import warp as wp


@wp.kernel
def scal_0bc2fba399(inp: wp.array(dtype=float), q: wp.array[wp.float32], scale: wp.float32, gain: wp.float32, bias: wp.float32, n_iter: wp.int32, gains: wp.array[wp.float32], output: wp.array[wp.float32], result: wp.array[float]):
    tid = wp.tid()
    inp_v = inp[tid]
    q_v = q[tid]
    acc1 = float(0.0)
    for s in range(n_iter):
        acc1 += gains[s] * inp_v
    output[tid] = (((inp_v * bias) - scale) + gain) - acc1
    result[tid] = min(q_v, inp_v)
