import warp as wp


@wp.kernel(enable_backward=False)
def arith_308af0d7d0(inp: wp.array(dtype=float), y: wp.array(dtype=float), rel_err: wp.array(dtype=float), weighted: wp.array(dtype=float), limited: wp.array(dtype=float)):
    tid = wp.tid()
    inp_v = inp[tid]
    inp_left = inp[wp.max(tid - 1, 0)]
    inp_right = inp[wp.min(tid + 1, inp.shape[0] - 1)]
    y_v = y[tid]
    grad = 0.5 * (inp_right - inp_left)
    rel_err[tid] = (inp_v - grad) / (wp.abs(grad) + 0.125)
    weighted[tid] = 0.375 * inp_v + 0.625 * y_v
    limited[tid] = wp.min(wp.max(inp_v, -0.75), 0.75)
