import warp as wp


@wp.func
def math_fdaa5eba24_fn0(u: float) -> float:
    d = 1.375 / (abs(u) + 2.0)
    g = 0.6875 / (abs(u) + 2.0)
    m = g / 2.0
    return (u - d) * m

@wp.kernel
def math_fdaa5eba24(a: wp.array[float], b: wp.array[float], idx: wp.array(dtype=wp.int32), seed: int, scale: wp.float32, strength: float, result: wp.array[float], out: wp.array(dtype=float), y_out: wp.array(dtype=float)):
    tid = wp.tid()
    idx_v = idx[tid]
    b_g = b[idx_v]
    a_v = a[tid]
    b_v = b[tid]
    v1 = wp.sin(b_v) / (wp.abs(b_g) + 1.0)
    v2 = math_fdaa5eba24_fn0(a_v / 4.0)
    state = wp.rand_init(seed)
    point = scale * a_v
    result[tid] = strength * wp.noise(state, point)
    out[tid] = (wp.clamp(v2, -0.5, 1.0) / (wp.abs((v2 / 2.0) / 0.5) + 2.0)) - v1
    y_out[tid] = -0.5 * a_v
