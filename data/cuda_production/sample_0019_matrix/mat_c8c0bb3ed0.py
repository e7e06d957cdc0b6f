import warp as wp


@wp.kernel
def mat_c8c0bb3ed0(src: wp.array[wp.mat44], data: wp.array[wp.mat44], u: wp.array(dtype=wp.vec4), res: wp.array[wp.float32], res2: wp.array[wp.vec4]):
    tid = wp.tid()
    m1 = wp.abs(-1.5) * (1.9375 * data[tid])
    m2 = src[tid] + m1
    m3 = data[tid]
    res[tid] = m3[2][1]
    res2[tid] = src[tid] * wp.vec4(max(1.3125, -0.3125), wp.abs(1.0), wp.max(1.6875, -1.25), wp.abs(-1.3125))
