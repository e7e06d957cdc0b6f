import warp as wp


@wp.kernel
def mat_4d95266e42(p: wp.array(dtype=wp.mat22), x: wp.array[wp.mat22], res: wp.array[wp.mat22]):
    tid = wp.tid()
    m1 = wp.transpose(p[tid] - x[tid]) - p[tid]
    res[tid] = m1 @ p[tid]
