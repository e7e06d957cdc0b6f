import warp as wp


@wp.kernel
def mat_f324d3f444(src: wp.array[wp.mat22], q: wp.array[wp.vec2], output: wp.array[wp.vec2]):
    tid = wp.tid()
    src_v = src[tid]
    q_v = q[tid]
    m1 = 0.5625 * src_v
    m2 = m1 + wp.mul(m1, m1)
    output[tid] = m2 @ q_v
