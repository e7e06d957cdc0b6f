import warp as wp


@wp.kernel
def mat_7e3907f5c9(p: wp.array(dtype=wp.mat44), result: wp.array(dtype=float)):
    tid = wp.tid()
    p_v = p[tid]
    m1 = 0.5 * (p_v - wp.transpose(p_v))
    m3 = wp.transpose(m1) @ m1
    result[tid] = m3[1][3]
