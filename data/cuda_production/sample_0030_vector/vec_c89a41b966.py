import warp as wp


@wp.kernel
def vec_c89a41b966(b2: wp.array(dtype=float), res: wp.array(dtype=wp.vec4)):
    tid = wp.tid()
    b2_v = b2[tid]
    t1 = ((b2_v * (-0.625)) * (b2_v * b2_v)) * wp.vec4(b2_v, 1.25, 1.6875, min(0.1875, b2_v))
    t2 = wp.vec4(b2_v, -2.5, wp.abs(b2_v), b2_v * b2_v)
    res[tid] = t2 + t1
