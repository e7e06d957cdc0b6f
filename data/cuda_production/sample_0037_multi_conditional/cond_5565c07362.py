import warp as wp


@wp.kernel
def cond_5565c07362(w: wp.array(dtype=wp.float32), y_out: wp.array(dtype=float), dst: wp.array[wp.float32]):
    tid = wp.tid()
    r1 = w[tid]
    r2 = max(w[tid], -1.1875)
    if 9 + 3 > 8:
        r2 = w[tid]
        r1 = -r2
        if (tid >= 1) or (wp.abs(-1.8125) > w[tid]):
            r1 = wp.max(w[tid] - w[tid], r1)
            r2 = w[tid]
        elif (tid * 9 > 8) and (wp.abs(w[tid]) >= w[tid]):
            r1 = wp.max(r1, r2)
            r2 = wp.abs(-1.9375)
    elif (wp.max(w[tid], w[tid]) <= w[tid]) and (tid >= 8):
        r2 = w[tid]
        r1 = wp.max(r1, w[tid])
        if tid < 1:
            r1 = r1
        elif wp.abs(-1.1875) > w[tid]:
            r1 = w[tid]
    elif w[tid] > 0.5:
        r2 = -wp.abs(0.4375)
    y_out[tid] = r1
    dst[tid] = r2
