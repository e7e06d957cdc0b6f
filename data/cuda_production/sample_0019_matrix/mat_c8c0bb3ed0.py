import warp as wp


@wp.kernel
def mat_c8c0bb3ed0(src: wp.array[wp.mat44], data: wp.array[wp.mat44], u: wp.array(dtype=wp.vec4), result: wp.array[wp.mat44]):
    tid = wp.tid()
    m1 = wp.outer(u[tid], u[tid]) + (data[tid] @ src[tid])
    m2 = wp.abs(1.0 + 2.4375) * m1
    m3 = wp.mul(m2 - m2, wp.outer(u[tid], u[tid]))
    result[tid] = m3
