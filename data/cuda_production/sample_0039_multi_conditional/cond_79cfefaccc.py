import warp as wp


@wp.kernel
def cond_79cfefaccc(src: wp.array(dtype=float), q: wp.array(dtype=wp.float32), out: wp.array[float], out2: wp.array[float]):
    tid = wp.tid()
    r1 = src[tid] / -2.0
    r2 = src[tid]
    if (src[tid] >= q[tid]) or (q[tid] < src[tid]):
        r2 = q[tid] / (wp.abs(min(r2, q[tid])) + 1.0)
        if src[tid] < 1.625:
            r2 = q[tid]
            r1 = src[tid] / -2.0
        elif -q[tid] > q[tid]:
            r1 = (src[tid] / (abs(src[tid]) + 0.5)) / (wp.abs(wp.min(r2, r1)) + 1.0)
        elif (-1.875 > src[tid]) or (wp.abs(q[tid]) < q[tid]):
            r2 = -0.625
            r1 = r1
        else:
            r2 = r2
    elif (src[tid] > -0.5) and (q[tid] >= src[tid]):
        r1 = src[tid] / 1.5
        if -src[tid] < q[tid]:
            r2 = min(q[tid], -r1)
        elif (-1.25 > src[tid]) and (q[tid] / 8.0 <= src[tid]):
            r1 = wp.abs(src[tid] / (abs(src[tid]) + 2.0))
            r2 = q[tid]
        elif (tid / (-2) < 2) and (wp.abs(-2.25) <= -1.3125):
            r2 = (-q[tid]) / (abs(r2 / 2.0) + 1.0)
            r1 = 0.9375
        else:
            r1 = r2
            r2 = src[tid]
    elif (tid // 7 == 5) and (wp.abs(src[tid]) < q[tid]):
        r2 = wp.min(r1, 0.3125)
        r1 = r1
        if 2.3125 > q[tid]:
            r2 = src[tid]
            r1 = min(r2, q[tid]) / 8.0
        else:
            r1 = 2.375 / 0.5
    else:
        r2 = q[tid]
    out[tid] = r1
    out2[tid] = r2
