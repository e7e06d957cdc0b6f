import warp as wp


GAIN_B2ADA90B17 = wp.constant(1.875)

@wp.func
def comb_b2ada90b17_fn0(x: float, y: float) -> float:
    e = 2.4375 / (abs(y) + 2.0)
    return e + x

@wp.kernel
def comb_b2ada90b17(p: wp.array[wp.float32], q: wp.array[float], perm: wp.array(dtype=int), src: wp.array[wp.vec3], coef: wp.array(dtype=float), dst: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    p_left = p[max(tid - 1, 0)]
    p_right = p[wp.min(tid + 1, 99)]
    perm_v = perm[tid]
    p_g = p[perm_v]
    src_v = src[tid]
    p_v = p[tid]
    q_v = q[tid]
    s1 = wp.dot(src_v, src_v)
    acc3 = float(0.0)
    c2 = int(0)
    while c2 < 3:
        acc3 += coef[c2] * (wp.pow(wp.abs(p_g) + 1.0, 2.0) - 1.4375)
        c2 = c2 + 1
    v4 = comb_b2ada90b17_fn0(q_v, p_right / (wp.abs(p_v) + 2.0))
    dst[tid] = (((wp.pow(wp.abs(p_left) + 1.0, 2.0) - GAIN_B2ADA90B17) + s1) - acc3) - v4
