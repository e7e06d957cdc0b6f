import warp as wp


@wp.func
def soft_clip(x: float, limit: float) -> float:
    return limit * wp.tanh(x / limit)

@wp.kernel
def math_9a248b9686(w: wp.array[float], src: wp.array[float], a: wp.array[float], limited: wp.array[float], smin: wp.array[float], proj: wp.array[float], loss: wp.array[float]):
    tid = wp.tid()
    w_v = w[tid]
    a_v = a[tid]
    limited[tid] = soft_clip(a_v, 2.0)
    smin[tid] = -wp.log(wp.exp(-w_v) + wp.exp(-src[tid]))
    proj[tid] = w_v * wp.sin(a_v)
    loss[tid] = wp.log(1.0 + w_v * w_v)
