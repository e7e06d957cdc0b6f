import warp as wp


@wp.kernel
def vec_11c2d061ea(y: wp.array(dtype=wp.vec3), w: wp.array[wp.vec3], src: wp.array[float], result: wp.array(dtype=float)):
    tid = wp.tid()
    y_v = y[tid]
    w_v = w[tid]
    src_v = src[tid]
    result[tid] = wp.length(wp.min(src_v * y_v, w_v))
