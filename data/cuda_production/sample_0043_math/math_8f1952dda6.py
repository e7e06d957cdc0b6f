import warp as wp


@wp.kernel
def math_8f1952dda6(inp: wp.array[wp.float32], dst: wp.array(dtype=wp.float32), out: wp.array(dtype=float)):
    tid = wp.tid()
    inp_v = inp[tid]
    v1 = wp.cos(wp.ceil(wp.abs(inp_v)))
    v2 = wp.abs(wp.ceil(inp_v))
    dst[tid] = v2 - v1
    out[tid] = wp.abs(wp.cos(-v1))
