import warp as wp


@wp.kernel
def math_8f1952dda6(inp: wp.array[wp.float32], dst: wp.array[wp.float32], output: wp.array[wp.float32]):
    tid = wp.tid()
    inp_v = inp[tid]
    c = wp.clamp(inp_v, 0.0, 1.0)
    dst[tid] = wp.log(1.0 + inp_v * inp_v)
    output[tid] = wp.pow(c, 2.2)
