import warp as wp


@wp.kernel
def mat_4d95266e42(p: wp.array(dtype=wp.mat22), x: wp.array[wp.mat22], y_out: wp.array[wp.vec2]):
    tid = wp.tid()
    m1 = p[tid] + x[tid]
    m2 = x[tid] - (p[tid] + m1)
    y_out[tid] = m2 * wp.vec2(float(tid), float(tid) / 8.0)
