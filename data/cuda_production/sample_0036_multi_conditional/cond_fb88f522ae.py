import warp as wp


@wp.kernel
def cond_fb88f522ae(w: wp.array(dtype=wp.float32), dst: wp.array[float], out: wp.array[wp.float32], y_out: wp.array[float]):
    tid = wp.tid()
    r1 = w[tid] + w[tid]
    r2 = w[tid] + 0.25
    r3 = w[tid] / 2.0
    if w[tid] > float(tid):
        r1 = -2.0625
        if (wp.min(w[tid], w[tid]) < w[tid]) or (float(tid) + w[tid] >= w[tid]):
            r1 = w[tid] / -2.0
            r2 = w[tid] / 2.0
        elif (tid % 3 > 8) or (wp.min(float(tid), w[tid]) < w[tid]):
            r2 = float(tid)
        else:
            r3 = r3
            r2 = float(tid) / 4.0
            r1 = float(tid)
    elif tid > 7:
        r2 = (-2.125) / 4.0
        r1 = -2.375
        if (wp.abs(0.9375) < w[tid]) or (w[tid] + w[tid] > w[tid]):
            r3 = wp.abs((-2.375) + w[tid])
            r2 = w[tid]
            r1 = -0.25
        elif not (min(w[tid], float(tid)) <= float(tid)):
            r3 = float(tid)
            r1 = w[tid]
            r2 = w[tid]
        elif float(tid) >= w[tid]:
            r1 = float(tid)
        else:
            r1 = w[tid]
    elif w[tid] + w[tid] >= w[tid]:
        r3 = (w[tid] / 1.5) + r1
        r2 = wp.abs(w[tid])
    dst[tid] = r1
    out[tid] = r2
    y_out[tid] = r3
