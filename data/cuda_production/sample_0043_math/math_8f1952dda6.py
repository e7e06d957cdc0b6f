import warp as wp


@wp.kernel
def math_8f1952dda6(inp: wp.array[wp.float32], loss: wp.array[wp.float32], coord: wp.array[wp.float32], signal: wp.array[wp.float32], blend: wp.float32):
    tid = wp.tid()
    inp_v = inp[tid]
    cx = (float(tid) + 0.5) * 0.125
    loss[tid] = wp.log(1.0 + inp_v * inp_v)
    coord[tid] = inp_v * wp.cos(wp.clamp(cx, -4.0, 4.0))
    signal[tid] = (1.0 - blend) * signal[tid] + blend * (inp_v * wp.sin(2.0 * cx + 0.25))
