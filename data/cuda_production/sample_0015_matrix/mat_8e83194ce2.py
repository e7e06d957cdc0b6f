import warp as wp


@wp.kernel
def mat_8e83194ce2(b: wp.array[wp.mat44], w: wp.array[wp.vec4], x: wp.array[wp.vec4], out: wp.array[wp.vec4], dst: wp.array[wp.mat44]):
    tid = wp.tid()
    m1 = wp.transpose(wp.mul(b[tid] @ b[tid], wp.outer(wp.vec4(0.6875 + (-1.6875), 2.25 + 2.1875, max(2.5, 1.3125), (-0.3125) - (-1.8125)), x[tid])))
    out[tid] = m1 * w[tid]
    dst[tid] = m1
