import warp as wp


@wp.kernel
def math_443c2606d0(q: wp.array[float], inp: wp.array[float], seed: int, freq: float, strength: float, height: wp.array[float], encoded: wp.array[float], magnitude: wp.array[float], theta: wp.array[float]):
    tid = wp.tid()
    q_v = q[tid]
    inp_v = inp[tid]
    px = float(tid) * 0.125
    c = wp.clamp(inp_v, 0.0, 1.0)
    state = wp.rand_init(seed)
    point = freq * wp.vec3(q_v, inp_v, px)
    height[tid] = strength * wp.noise(state, point)
    encoded[tid] = wp.pow(c, 2.2)
    magnitude[tid] = wp.sqrt(inp_v * inp_v + q_v * q_v)
    theta[tid] = wp.atan2(q_v, inp_v)
