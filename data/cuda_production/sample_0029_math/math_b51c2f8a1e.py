import warp as wp


@wp.func
def math_b51c2f8a1e_fn0(u: float) -> float:
    m = u + (-0.5)
    d = u + 1.8125
    return wp.abs(u + m) + d

@wp.kernel
def math_b51c2f8a1e(p: wp.array(dtype=float), data: wp.array[float], dst: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    p_v = p[tid]
    data_v = data[tid]
    v1 = math_b51c2f8a1e_fn0(wp.abs(p_v))
    dst[tid] = wp.log(wp.exp(data_v) + 1.0) + v1
