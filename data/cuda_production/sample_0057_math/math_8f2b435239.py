import warp as wp


SCALE_8F2B435239 = wp.constant(0.6875)

@wp.func
def math_8f2b435239_fn0(u: float, v: float, s: float) -> float:
    return (wp.abs(u) * v) - s

@wp.kernel
def math_8f2b435239(y: wp.array2d(dtype=wp.float32), noise_seed: int, freq: wp.float32, amp: wp.float32, y_out: wp.array2d(dtype=wp.float32), dst: wp.array2d(dtype=wp.float32), out: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    y_v = y[i, j]
    v1 = float(i)
    v2 = math_8f2b435239_fn0(wp.floor(y_v), SCALE_8F2B435239, wp.atan2(v1, float(j)))
    state = wp.rand_init(noise_seed)
    point = freq * y_v
    y_out[i, j] = amp * wp.noise(state, point)
    dst[i, j] = wp.abs(wp.atan2(y_v, SCALE_8F2B435239)) + v2
    out[i, j] = wp.floor(wp.floor(y_v))
