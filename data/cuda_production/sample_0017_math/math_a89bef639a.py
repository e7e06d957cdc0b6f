import warp as wp


@wp.func
def soft_clip(x: float, limit: float) -> float:
    return limit * wp.tanh(x / limit)

@wp.kernel(enable_backward=False)
def math_a89bef639a(src: wp.array3d(dtype=float), clipped: wp.array3d(dtype=float), smooth_abs: wp.array3d(dtype=float), limited: wp.array3d(dtype=float)):
    i, j, k = wp.tid()
    src_v = src[i, j, k]
    clipped[i, j, k] = soft_clip(src_v, 1.0)
    smooth_abs[i, j, k] = wp.sqrt(src_v * src_v + 1.0e-4)
    limited[i, j, k] = 2.0 * wp.atan(src_v / 2.0)
