import warp as wp


@wp.func
def softplus(x: float) -> float:
    return wp.log(1.0 + wp.exp(x))

@wp.kernel
def math_381dd40d24(x: wp.array(dtype=float), softplus_out: wp.array(dtype=float), osc: wp.array(dtype=float), robust_loss: wp.array(dtype=float), decayed: wp.array(dtype=float)):
    tid = wp.tid()
    x_v = x[tid]
    px = float(tid) * 0.125
    softplus_out[tid] = softplus(x_v)
    osc[tid] = x_v * wp.cos(1.5 * px + 0.25)
    robust_loss[tid] = wp.log(1.0 + x_v * x_v)
    decayed[tid] = x_v * wp.exp(-1.5 * px)
