import warp as wp


@wp.kernel
def mat_f324d3f444(src: wp.array[wp.mat22], q: wp.array[wp.vec2], a: wp.array[wp.vec2], out: wp.array(dtype=wp.mat22)):
    tid = wp.tid()
    m1 = 0.125 * src[tid]
    m2 = wp.outer(a[tid], q[tid])
    out[tid] = wp.mul(src[tid], src[tid] + m2)
