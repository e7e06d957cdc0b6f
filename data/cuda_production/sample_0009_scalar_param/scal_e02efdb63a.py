import warp as wp


@wp.kernel
def scal_e02efdb63a(vals: wp.array[float], inp: wp.array[wp.float32], eps: wp.float32, freq: float, phase: wp.float32, dst: wp.array[float], n_iter: wp.int32, out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    inp_v = inp[tid]
    vals_v = vals[tid]
    soft_abs3 = wp.sqrt(inp_v * inp_v + eps)
    wave4 = wp.sin(freq * soft_abs3 + phase)
    dst[tid] = wave4
    a5 = 1.0 + vals_v * vals_v
    root6 = a5
    for s in range(n_iter):
        root6 = 0.5 * (root6 + a5 / root6)
    out[tid] = root6
