import warp as wp


@wp.kernel
def mat_7e3907f5c9(p: wp.array(dtype=wp.mat44), b: wp.array(dtype=wp.vec4), q: wp.array[wp.vec4], dst: wp.array(dtype=float)):
    tid = wp.tid()
    p_v = p[tid]
    b_v = b[tid]
    q_v = q[tid]
    m1 = wp.transpose(p_v)
    m2 = wp.outer(wp.normalize(wp.min(b_v, q_v)), wp.normalize(b_v))
    m3 = m2 - m1
    dst[tid] = m3[3][1]
