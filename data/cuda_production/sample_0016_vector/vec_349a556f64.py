import warp as wp


@wp.kernel
def vec_349a556f64(p: wp.array(dtype=wp.vec2), y: wp.array(dtype=wp.vec2), output: wp.array[wp.float32]):
    tid = wp.tid()
    p_v = p[tid]
    y_v = y[tid]
    t1 = wp.min(y_v, -p_v)
    output[tid] = t1.x
