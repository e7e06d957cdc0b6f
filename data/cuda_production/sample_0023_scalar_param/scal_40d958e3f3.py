import warp as wp


@wp.kernel
def scal_40d958e3f3(x: wp.array2d(dtype=float), src: wp.array2d(dtype=float), alpha: float, beta: wp.float32, threshold: wp.float32, result: wp.array2d(dtype=float), out: wp.array2d(dtype=float), dst: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    src_v = src[i, j]
    src_up = src[max(i - 1, 0), j]
    src_down = src[wp.min(i + 1, 15), j]
    src_left = src[i, max(j - 1, 0)]
    src_right = src[i, min(j + 1, 31)]
    x_v = x[i, j]
    lap1 = src_up + src_down + src_left + src_right - 4.0 * src_v
    combined2 = alpha * x_v + beta * src_v
    excess3 = wp.max(lap1 - threshold, 0.0)
    result[i, j] = excess3
    out[i, j] = (excess3 + 0.625) - combined2
    dst[i, j] = excess3
