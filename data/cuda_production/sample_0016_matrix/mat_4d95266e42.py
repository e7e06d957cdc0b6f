import warp as wp


@wp.kernel
def mat_4d95266e42(p: wp.array(dtype=wp.mat22), x: wp.array[wp.mat22], res: wp.array[wp.mat22]):
    tid = wp.tid()
    p_v = p[tid]
    x_v = x[tid]
    m1 = wp.transpose(p_v - x_v) - p_v
    res[tid] = m1 @ p_v
