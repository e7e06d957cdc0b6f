import warp as wp


GAIN_B2ADA90B17 = wp.constant(1.875)

@wp.func
def comb_b2ada90b17_fn0(x: float) -> float:
    d = -x
    return (d / 2.0) - x

@wp.kernel
def comb_b2ada90b17(p: wp.array[wp.float32], q: wp.array[float], acc: wp.array(dtype=wp.float32), dst: wp.array[wp.float32]):
    tid = wp.tid()
    p_left = p[max(tid - 1, 0)]
    p_right = p[wp.min(tid + 1, 99)]
    p_v = p[tid]
    q_v = q[tid]
    wp.atomic_add(acc, tid % 16, p_v)
    v1 = comb_b2ada90b17_fn0(wp.ceil(p_left))
    acc3 = float(0.0)
    c2 = int(0)
    while c2 < 4:
        acc3 = wp.tanh(0.75 * acc3 + (GAIN_B2ADA90B17 - p_v))
        c2 = c2 + 1
    dst[tid] = (acc3 - wp.ceil(q_v - p_right)) + v1
