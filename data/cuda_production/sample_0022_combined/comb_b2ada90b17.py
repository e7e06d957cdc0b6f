import warp as wp


@wp.func
def blend_b2ada90b17(a: float, b: float, t: float) -> float:
    return a + t * (b - a)

@wp.kernel
def comb_b2ada90b17(p: wp.array[wp.float32], q: wp.array[float], alpha_in: wp.array(dtype=float), dst: wp.array[wp.float32]):
    tid = wp.tid()
    p_v = p[tid]
    q_v = q[tid]
    alpha_in_v = alpha_in[tid]
    act1 = float(0.0)
    if p_v > 0.0:
        act1 = p_v
    else:
        act1 = 1.0 * (wp.exp(p_v) - 1.0)
    ecc_anom2 = q_v
    for it in range(8):
        ecc_anom2 = q_v + 0.125 * wp.sin(ecc_anom2)
    blended3 = blend_b2ada90b17(act1, ecc_anom2, alpha_in_v)
    dst[tid] = blended3
