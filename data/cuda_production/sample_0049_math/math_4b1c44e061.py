import warp as wp


@wp.func
def cauchy(r: float, c: float) -> float:
    t = r / c
    return 0.5 * c * c * wp.log(1.0 + t * t)

@wp.kernel
def math_4b1c44e061(y: wp.array[float], inp: wp.array[float], b: wp.array[float], loss: wp.array[float], cart: wp.array[float], theta: wp.array[float]):
    tid = wp.tid()
    inp_v = inp[tid]
    loss[tid] = cauchy(inp_v, 1.0)
    cart[tid] = inp_v * wp.cos(y[tid])
    theta[tid] = wp.atan2(b[tid], inp_v)
