import warp as wp


@wp.kernel
def math_443c2606d0(q: wp.array[float], inp: wp.array[float], noise_seed: int, frequency: float, amplitude: float, out: wp.array[float], out2: wp.array[float], y_out: wp.array[float], out3: wp.array[float]):
    tid = wp.tid()
    q_v = q[tid]
    inp_v = inp[tid]
    c = wp.clamp(inp_v, 0.0, 1.0)
    state = wp.rand_init(noise_seed)
    point = frequency * wp.vec2(q_v, inp_v)
    out[tid] = amplitude * wp.noise(state, point)
    out2[tid] = wp.pow(c, 2.2)
    y_out[tid] = wp.sqrt(q_v * q_v + c * c)
    out3[tid] = wp.sqrt(c * c + q_v * q_v)
