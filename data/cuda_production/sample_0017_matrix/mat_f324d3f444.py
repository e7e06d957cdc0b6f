import warp as wp


@wp.kernel
def mat_f324d3f444(q: wp.array[wp.vec2], output: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    q_v = q[tid]
    m2 = wp.outer(wp.vec2(-2.25, -1.8125), q_v)
    output[tid] = m2[1][1]
