import warp as wp


@wp.kernel
def vec_c89a41b966(b: wp.array(dtype=wp.vec4), res: wp.array(dtype=wp.vec4)):
    tid = wp.tid()
    b_v = b[tid]
    res[tid] = -0.5 * b_v
