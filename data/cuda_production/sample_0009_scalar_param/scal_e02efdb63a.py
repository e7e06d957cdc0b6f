import warp as wp


@wp.kernel
def scal_e02efdb63a(vals: wp.array[float], inp: wp.array[float], eps: float, freq: float, phase: float, dst: wp.array[float], n_iter: int, out: wp.array[float]):
    tid = wp.tid()
    inp_v = inp[tid]
    vals_v = vals[tid]
    soft_abs = wp.sqrt(inp_v * inp_v + eps)
    wave = wp.sin(freq * soft_abs + phase)
    dst[tid] = wave
    a = 1.0 + vals_v * vals_v
    root = a
    for s in range(n_iter):
        root = 0.5 * (root + a / root)
    out[tid] = root
