import warp as wp


@wp.kernel
def math_a89bef639a(src: wp.array3d(dtype=wp.float32), w: wp.array3d(dtype=wp.float32), angle: wp.array3d(dtype=wp.float32), proj: wp.array3d(dtype=wp.float32), wrapped: wp.array3d(dtype=wp.float32)):
    i, j, k = wp.tid()
    src_v = src[i, j, k]
    w_v = w[i, j, k]
    angle[i, j, k] = wp.atan2(src_v, w_v)
    proj[i, j, k] = w_v * wp.sin(src_v)
    wrapped[i, j, k] = w_v - wp.floor(w_v)
