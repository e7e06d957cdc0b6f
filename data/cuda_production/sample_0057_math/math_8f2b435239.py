import warp as wp


@wp.kernel
def math_8f2b435239(y: wp.array2d(dtype=wp.float32), kernel_seed: wp.int32, freq: float, amp: float, res: wp.array2d(dtype=float), y_out: wp.array2d(dtype=float), output: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    y_v = y[i, j]
    cx = (float(i) + 0.5) * 0.5
    v1 = wp.floor(wp.floor(y_v))
    state = wp.rand_init(kernel_seed)
    point = freq * wp.vec2(y_v, cx)
    res[i, j] = amp * wp.noise(state, point)
    y_out[i, j] = wp.exp(-v1 * v1 * 0.5)
    output[i, j] = wp.exp(-y_v * y_v * 0.25) - freq
