import warp as wp


@wp.kernel
def math_8f1952dda6(inp: wp.array[wp.float32], cauchy_loss: wp.array[wp.float32], wave: wp.array[wp.float32], wrapped: wp.array[wp.float32]):
    tid = wp.tid()
    inp_v = inp[tid]
    cx = (float(tid) + 0.5) * 0.125
    cauchy_loss[tid] = wp.log(1.0 + inp_v * inp_v)
    wave[tid] = inp_v * wp.sin(3.0 * cx + 1.0)
    wrapped[tid] = cx - wp.floor(cx)
