import warp as wp


@wp.func
def cauchy(r: float, c: float) -> float:
    t = r / c
    return 0.5 * c * c * wp.log(1.0 + t * t)

@wp.kernel
def math_4b1c44e061(y: wp.array[float], inp: wp.array[float], loss: wp.array[float], c: float, proj: wp.array[float], proj2: wp.array[float]):
    tid = wp.tid()
    y_v = y[tid]
    y_left = y[max(tid - 1, 0)]
    y_right = y[min(tid + 1, y.shape[0] - 1)]
    inp_v = inp[tid]
    grad = 0.5 * (y_right - y_left)
    loss[tid] = cauchy(y_v, c)
    proj[tid] = inp_v * wp.cos(y_v)
    proj2[tid] = inp_v * wp.cos(grad)
