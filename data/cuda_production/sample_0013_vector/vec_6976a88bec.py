import warp as wp


@wp.kernel
def vec_6976a88bec(y: wp.array(dtype=wp.vec2), result: wp.array(dtype=wp.vec2), y_out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    t1 = wp.normalize(y[tid])
    s2 = wp.length(t1)
    t3 = y[tid] * s2
    result[tid] = -(-t3)
    y_out[tid] = wp.length(y[tid])
