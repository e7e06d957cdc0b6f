import warp as wp


@wp.kernel
def mat_f324d3f444(q: wp.array[wp.vec2], a: wp.array[wp.vec2], output: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    m2 = wp.outer(a[tid], q[tid])
    m4 = m2
    output[tid] = m4[1][1]
