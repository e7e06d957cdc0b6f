import warp as wp


@wp.kernel
def scal_40d958e3f3(x: wp.array2d(dtype=float), src: wp.array2d(dtype=float), scale: float, dst: wp.array2d(dtype=float), n_substeps: int, dt_sub: float, stiffness: float, output: wp.array2d(dtype=float)):
    i, j = wp.tid()
    src_up = src[max(i - 1, 0), j]
    src_down = src[min(i + 1, src.shape[0] - 1), j]
    src_left = src[i, max(j - 1, 0)]
    src_right = src[i, min(j + 1, src.shape[1] - 1)]
    x_v = x[i, j]
    lap = src_up + src_down + src_left + src_right - 4.0 * src[i, j]
    scaled = scale * lap
    dst[i, j] = scaled
    state = float(0.0)
    for s in range(n_substeps):
        state = state + dt_sub * (x_v - stiffness * state)
    output[i, j] = state
