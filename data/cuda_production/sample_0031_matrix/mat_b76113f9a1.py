import warp as wp


@wp.kernel
def mat_b76113f9a1(vals2: wp.array(dtype=float), result: wp.array[wp.mat44], out: wp.array[wp.vec4]):
    tid = wp.tid()
    vals2_v = vals2[tid]
    m1 = (-1.9375) * wp.outer(wp.vec4(vals2_v, -2.25, -1.1875, -vals2_v), wp.vec4(vals2_v, 0.75, 0.5625, -1.125))
    m2 = vals2_v * m1
    result[tid] = m2
    out[tid] = m2 * wp.vec4(vals2_v, -vals2_v, max(-0.625, vals2_v), wp.abs(vals2_v))
