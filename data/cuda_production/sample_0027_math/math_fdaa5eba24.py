import warp as wp


@wp.func
def math_fdaa5eba24_fn0(u: float) -> float:
    d = 1.375 / (abs(u) + 2.0)
    g = 0.6875 / (abs(u) + 2.0)
    m = g / 2.0
    return (u - d) * m

@wp.kernel
def math_fdaa5eba24(a: wp.array[float], b: wp.array[float], idx: wp.array(dtype=wp.int32), out: wp.array(dtype=float)):
    tid = wp.tid()
    idx_v = idx[tid]
    b_g = b[idx_v]
    a_v = a[tid]
    b_v = b[tid]
    v1 = wp.sin(b_v) / (wp.abs(b_g) + 1.0)
    v2 = math_fdaa5eba24_fn0(a_v / 4.0)
    out[tid] = wp.cos(v2) + v1
