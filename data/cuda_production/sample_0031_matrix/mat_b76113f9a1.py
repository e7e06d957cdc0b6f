import warp as wp


@wp.kernel
def mat_b76113f9a1(vals: wp.array(dtype=wp.mat44), vals2: wp.array(dtype=float), res: wp.array[wp.mat44]):
    tid = wp.tid()
    vals2_v = vals2[tid]
    vals_v = vals[tid]
    m1 = vals_v - wp.outer(wp.vec4(vals2_v, -1.4375, vals2_v, vals2_v), wp.vec4(-1.9375, vals2_v, vals2_v, -1.5))
    res[tid] = wp.mul(vals_v, m1)
