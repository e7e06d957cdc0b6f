import warp as wp


@wp.kernel
def scal_e02efdb63a(vals: wp.array[float], inp: wp.array[wp.float32], eps: float, out: wp.array(dtype=wp.float32), output: wp.array[float]):
    tid = wp.tid()
    vals_v = vals[tid]
    inp_v = inp[tid]
    v1 = inp_v + vals_v
    v2 = -v1
    out[tid] = wp.abs(v2) - eps
    output[tid] = wp.abs(v2)
