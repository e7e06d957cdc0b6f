import warp as wp


@wp.kernel
def scal_e02efdb63a(vals: wp.array[float], inp: wp.array[wp.float32], gain: float, bias: float, threshold: float, weight: wp.float32, n_iter: int, res: wp.array(dtype=float), output: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    inp_v = inp[tid]
    inp_left = inp[wp.max(tid - 1, 0)]
    inp_right = inp[min(tid + 1, 127)]
    vals_v = vals[tid]
    grad1 = 0.5 * (inp_right - inp_left)
    response2 = gain * wp.min(grad1, vals_v) + bias
    excess3 = wp.max(inp_v - threshold, 0.0)
    blended4 = excess3 + weight * (response2 - excess3)
    acc5 = float(0.0)
    for s in range(n_iter):
        acc5 = wp.abs(excess3) + 0.5 * wp.sin(acc5)
    res[tid] = blended4
    output[tid] = (blended4 * acc5) - min(vals_v, acc5)
