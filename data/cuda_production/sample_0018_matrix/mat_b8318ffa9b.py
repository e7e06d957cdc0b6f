import warp as wp


@wp.kernel
def mat_b8318ffa9b(data: wp.array[wp.mat22], x: wp.array(dtype=wp.mat22), res: wp.array[wp.float32], out: wp.array[wp.mat22]):
    tid = wp.tid()
    m1 = x[tid]
    res[tid] = m1[0, 0]
    out[tid] = wp.transpose(wp.outer(wp.vec2(max(-0.25, -2.0), 0.875 - (-2.0)), wp.vec2(-0.25, (-2.3125) - 0.75)))
