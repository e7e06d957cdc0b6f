import warp as wp


@wp.func
def cauchy(r: float, c: float) -> float:
    t = r / c
    return 0.5 * c * c * wp.log(1.0 + t * t)

@wp.kernel(enable_backward=False)
def math_2252346009(q: wp.array2d(dtype=float), data: wp.array2d(dtype=float), w: wp.array2d(dtype=float), loss: wp.array2d(dtype=float), c: float, kernel_seed: int, freq: float, amplitude: float, height: wp.array2d(dtype=float), theta: wp.array2d(dtype=float)):
    i, j = wp.tid()
    q_v = q[i, j]
    data_v = data[i, j]
    w_v = w[i, j]
    loss[i, j] = cauchy(data_v, c)
    state = wp.rand_init(kernel_seed)
    point = freq * wp.vec3(data_v, w_v, q_v)
    height[i, j] = amplitude * wp.noise(state, point)
    theta[i, j] = wp.atan2(data_v, w_v)
