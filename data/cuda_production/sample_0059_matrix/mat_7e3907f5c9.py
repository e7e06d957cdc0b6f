import warp as wp


@wp.kernel
def mat_7e3907f5c9(p: wp.array(dtype=wp.mat44), b: wp.array(dtype=wp.vec4), inp: wp.array[wp.float32], y_out: wp.array(dtype=wp.mat44), out: wp.array[wp.float32]):
    tid = wp.tid()
    p_v = p[tid]
    inp_v = inp[tid]
    b_v = b[tid]
    m1 = 0.5 * (p_v - wp.transpose(p_v))
    m2 = p_v @ m1 @ wp.transpose(p_v)
    m3 = m1 - m2
    y_out[tid] = inp_v * m3
    m4 = wp.outer(b_v, b_v)
    out[tid] = m4[0, 2]
