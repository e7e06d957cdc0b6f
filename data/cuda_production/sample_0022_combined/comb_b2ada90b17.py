import warp as wp


GAIN_B2ADA90B17 = wp.constant(1.875)

@wp.func
def comb_b2ada90b17_fn0(x: float) -> float:
    t = x / 3.0
    d = x - (-0.0625)
    return t + d

@wp.kernel
def comb_b2ada90b17(p: wp.array[wp.float32], q: wp.array[float], src: wp.array[wp.vec3], res: wp.array[wp.float32]):
    tid = wp.tid()
    p_right = p[wp.min(tid + 1, 99)]
    src_v = src[tid]
    q_v = q[tid]
    s1 = wp.dot(src_v, -src_v)
    acc3 = float(0.0)
    c2 = int(0)
    while c2 < 8:
        acc3 = acc3 * 0.75 + wp.pow(wp.abs(q_v - s1) + 1.0, 1.5)
        c2 = c2 + 1
    v4 = comb_b2ada90b17_fn0(s1 / 3.0)
    res[tid] = ((wp.floor(wp.ceil(p_right)) + GAIN_B2ADA90B17) - acc3) - v4
