import warp as wp


@wp.kernel
def scal_e02efdb63a(inp: wp.array[wp.float32], slope: wp.float32, hi: wp.float32, lo: wp.float32, clipped: wp.array[wp.float32]):
    tid = wp.tid()
    inp_v = inp[tid]
    activated = wp.where(inp_v > 0.0, inp_v, slope * inp_v)
    limited = wp.clamp(activated, lo, hi)
    clipped[tid] = limited
