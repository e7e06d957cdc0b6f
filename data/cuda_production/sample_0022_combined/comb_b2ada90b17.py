import warp as wp


@wp.kernel
def comb_b2ada90b17(p: wp.array[wp.float32], q: wp.array[float], a: wp.array(dtype=wp.vec3), acc: wp.array(dtype=float), dst: wp.array[float]):
    tid = wp.tid()
    p_right = p[wp.min(tid + 1, 99)]
    a_v = a[tid]
    p_v = p[tid]
    q_v = q[tid]
    s1 = wp.length(wp.normalize(a_v))
    acc2 = float(0.0)
    for k in range(0, 10):
        if wp.floor(p_right) > p_v:
            break
        acc2 += wp.floor(p_v)
    acc4 = float(0.0)
    c3 = int(0)
    while c3 < 6:
        acc4 = acc4 + q_v
        c3 = c3 + 1
    wp.atomic_add(acc, tid % 16, acc2 / 4.0)
    dst[tid] = (wp.pow(wp.abs(s1) + 1.0, 2.0) / 1.5) - acc4
