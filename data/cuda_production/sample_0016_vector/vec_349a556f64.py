import warp as wp


@wp.kernel
def vec_349a556f64(y: wp.array(dtype=wp.vec2), inp: wp.array(dtype=wp.float32), output: wp.array[wp.vec2], result: wp.array(dtype=float)):
    tid = wp.tid()
    y_v = y[tid]
    inp_v = inp[tid]
    t1 = wp.vec2(2.125, -inp_v)
    output[tid] = wp.min(t1, -t1)
    t2 = ((-2.5) - inp_v) * y_v
    result[tid] = 0.5 * t2[1]
