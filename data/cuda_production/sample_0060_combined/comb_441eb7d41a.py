import warp as wp


@wp.func
def comb_441eb7d41a_fn0(u: float) -> float:
    e = u * u
    t = e / 0.5
    m = t - (-0.8125)
    return ((u / -2.0) / 2.0) - m

@wp.kernel
def comb_441eb7d41a(b: wp.array[wp.float32], p: wp.array(dtype=wp.vec3), dst: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    b_v = b[tid]
    b_left = b[max(tid - 1, 0)]
    b_right = b[min(tid + 1, 99)]
    p_v = p[tid]
    lap1 = b_left + b_right - 2.0 * b_v
    v2 = comb_441eb7d41a_fn0(wp.clamp(b_v, -1.0, 1.0))
    s3 = wp.length(p_v - wp.vec3(b_v, lap1, lap1))
    v4 = wp.where(lap1 >= float(tid), b_v / 8.0, lap1)
    acc6 = float(0.0)
    c5 = int(0)
    while c5 < 4:
        acc6 = acc6 + (wp.clamp(float(tid), -2.0, 1.0) * b_v)
        c5 = c5 + 1
    dst[tid] = (((b_v - v2) - s3) + v4) + acc6
