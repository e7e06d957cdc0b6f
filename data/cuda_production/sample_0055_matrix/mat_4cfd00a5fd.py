import warp as wp


@wp.kernel
def mat_4cfd00a5fd(src: wp.array[wp.mat44], output: wp.array(dtype=wp.float32), dst: wp.array[wp.vec4]):
    tid = wp.tid()
    src_v = src[tid]
    m1 = 0.5 * src_v
    output[tid] = m1[3, 0]
    dst[tid] = wp.transpose(src_v) @ wp.vec4(1.3125, -1.0, 1.25, 0.375)
