import warp as wp


@wp.kernel
def math_b268e68901(b: wp.array[float], w: wp.array[float], kernel_seed: int, frequency: float, amplitude: float, density: wp.array[float]):
    tid = wp.tid()
    b_v = b[tid]
    w_v = w[tid]
    state = wp.rand_init(kernel_seed)
    point = frequency * wp.vec2(b_v, w_v)
    density[tid] = amplitude * wp.noise(state, point)
