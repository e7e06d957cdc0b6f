import warp as wp


@wp.func
def math_b51c2f8a1e_fn0(u: float) -> float:
    m = u - 0.5
    d = u + 1.8125
    return wp.abs(u + m) + d

@wp.kernel
def math_b51c2f8a1e(p: wp.array(dtype=float), dst: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    p_v = p[tid]
    v1 = math_b51c2f8a1e_fn0(wp.abs(p_v))
    dst[tid] = wp.log(wp.abs(v1) + 1.0)
