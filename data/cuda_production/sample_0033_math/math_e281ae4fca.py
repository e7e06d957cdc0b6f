import warp as wp


@wp.kernel
def math_e281ae4fca(p: wp.array[float], u: wp.array[float], kernel_seed: int, scale: float, strength: float, density: wp.array[float], soft_min: wp.array[float], fract: wp.array[float], alpha: float):
    tid = wp.tid()
    p_v = p[tid]
    u_v = u[tid]
    state = wp.rand_init(kernel_seed)
    point = scale * p_v
    density[tid] = strength * wp.noise(state, point)
    soft_min[tid] = -wp.log(wp.exp(-p_v) + wp.exp(-u_v))
    fract[tid] = wp.lerp(fract[tid], p_v - wp.floor(p_v), alpha)
