import warp as wp


@wp.func
def math_b51c2f8a1e_fn0(u: float) -> float:
    m = u - 0.5
    d = u + 1.8125
    return wp.abs(u + m) + d

@wp.kernel
def math_b51c2f8a1e(p: wp.array(dtype=float), data: wp.array[float], seed: int, scale: float, amplitude: float, y_out: wp.array(dtype=float), res: wp.array(dtype=float), res2: wp.array(dtype=wp.float32), y_out2: wp.array[float]):
    tid = wp.tid()
    p_v = p[tid]
    data_v = data[tid]
    fx = float(tid) / 1024.0
    v1 = math_b51c2f8a1e_fn0(wp.log(wp.abs(p_v) + 1.0))
    state = wp.rand_init(seed)
    point = scale * wp.vec3(p_v, data_v, fx)
    y_out[tid] = amplitude * wp.noise(state, point)
    res[tid] = p_v - wp.floor(p_v)
    res2[tid] = data_v * wp.exp(-0.75 * fx)
    y_out2[tid] = v1
