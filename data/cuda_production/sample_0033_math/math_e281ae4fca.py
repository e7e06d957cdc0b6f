import warp as wp


@wp.kernel(module="unique")
def math_e281ae4fca(p: wp.array[float], u: wp.array[float], kernel_seed: int, freq: float, strength: float, density: wp.array[float], bend_angle: wp.array[float], decayed: wp.array[float]):
    tid = wp.tid()
    u_v = u[tid]
    cx = (float(tid) + 0.5) * 0.125
    state = wp.rand_init(kernel_seed)
    point = freq * wp.vec3(u_v, p[tid], cx)
    density[tid] = strength * wp.noise(state, point)
    bend_angle[tid] = wp.acos(wp.clamp(u_v, -1.0, 1.0))
    decayed[tid] = u_v * wp.exp(-0.5 * cx)
