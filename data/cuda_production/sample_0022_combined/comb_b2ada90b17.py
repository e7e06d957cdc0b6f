import warp as wp


GAIN_B2ADA90B17 = wp.constant(1.875)

@wp.kernel
def comb_b2ada90b17(p: wp.array[wp.float32], q: wp.array[float], perm: wp.array(dtype=int), acc: wp.array(dtype=wp.float32), dst: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    perm_v = perm[tid]
    p_g = p[perm_v]
    p_v = p[tid]
    q_v = q[tid]
    wp.atomic_add(acc, tid % 16, p_v)
    f1 = 0.75 * p_v + 0.25 * p_g
    v2 = wp.abs(p_v)
    lo3 = float(0.0)
    hi4 = float(2.0)
    it5 = int(0)
    while it5 < 10:
        mid = 0.5 * (lo3 + hi4)
        if mid * mid > v2:
            hi4 = mid
        else:
            lo3 = mid
        it5 += 1
    lp6 = 0.5 * (lo3 + hi4)
    dst[tid] = ((lp6 - q_v) - GAIN_B2ADA90B17) - f1
