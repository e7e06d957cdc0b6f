import warp as wp


@wp.kernel
def mat_8e83194ce2(b: wp.array[wp.mat44], w: wp.array[wp.vec4], x: wp.array[wp.vec4], out: wp.array(dtype=wp.mat44), out2: wp.array[wp.vec4]):
    tid = wp.tid()
    m1 = wp.transpose(b[tid])
    m2 = ((-0.375) * b[tid]) @ wp.outer(x[tid], w[tid])
    out[tid] = wp.outer(x[tid], w[tid])
    out2[tid] = (b[tid] - b[tid]) * wp.vec4(-1.625, (-0.875) * 0.9375, max(-1.3125, -0.8125), (-0.5) * 0.6875)
