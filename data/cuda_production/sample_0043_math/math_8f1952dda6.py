import warp as wp


@wp.kernel
def math_8f1952dda6(inp: wp.array[wp.float32], y_out: wp.array[wp.float32], dst: wp.array[wp.float32]):
    tid = wp.tid()
    inp_v = inp[tid]
    cx = (float(tid) + 0.5) * 0.125
    y_out[tid] = wp.log(1.0 + inp_v * inp_v)
    dst[tid] = inp_v * wp.sin(3.0 * cx + 1.0)
