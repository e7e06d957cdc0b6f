import warp as wp


@wp.kernel
def vec_6976a88bec(u: wp.array(dtype=wp.vec2), y: wp.array(dtype=wp.vec2), p: wp.array(dtype=wp.vec2), y_out: wp.array[wp.vec2]):
    tid = wp.tid()
    t1 = p[tid] - p[tid]
    s2 = t1.x
    y_out[tid] = s2 * u[tid]
