import warp as wp


@wp.kernel
def mat_f324d3f444(q: wp.array[wp.vec2], a: wp.array[wp.vec2], output: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    q_v = q[tid]
    a_v = a[tid]
    m2 = wp.outer(a_v, q_v)
    output[tid] = m2[1][1]
