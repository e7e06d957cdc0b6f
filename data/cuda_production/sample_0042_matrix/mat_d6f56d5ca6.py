import warp as wp


@wp.kernel
def mat_d6f56d5ca6(p: wp.array[wp.mat44], dst: wp.array(dtype=wp.mat44)):
    tid = wp.tid()
    p_v = p[tid]
    m1 = (p_v + (p_v @ p_v)) + wp.transpose(wp.mul(p_v, p_v))
    dst[tid] = p_v - m1
