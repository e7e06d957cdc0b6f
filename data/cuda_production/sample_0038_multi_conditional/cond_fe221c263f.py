import warp as wp


@wp.kernel
def cond_fe221c263f(p: wp.array[wp.float32], w: wp.array[wp.float32], data: wp.array[float], result: wp.array[wp.float32], res: wp.array[wp.float32]):
    tid = wp.tid()
    r1 = data[tid]
    r2 = wp.abs(p[tid])
    if data[tid] > w[tid]:
        r2 = p[tid] / (wp.abs(r2) + 2.0)
        if data[tid] <= float(tid):
            r2 = -2.1875
        elif w[tid] <= data[tid]:
            r1 = w[tid]
            r2 = p[tid]
        elif (-2.375) * 1.375 <= p[tid]:
            r2 = -2.4375
        else:
            r1 = wp.abs(float(tid))
    elif (0.1875 < data[tid]) or ((-2.5) - p[tid] > 0.3125):
        r1 = w[tid]
        r2 = wp.abs(r2)
    elif (float(tid) < p[tid]) and (wp.abs(w[tid]) < p[tid]):
        r1 = float(tid)
        if (max(p[tid], p[tid]) <= float(tid)) and (w[tid] * float(tid) < p[tid]):
            r1 = data[tid]
        elif w[tid] * data[tid] > p[tid]:
            r1 = p[tid]
            r2 = w[tid] * float(tid)
        elif wp.abs(p[tid]) <= w[tid]:
            r1 = p[tid]
            r2 = (w[tid] * w[tid]) / (wp.abs(wp.abs(w[tid])) + 2.0)
    else:
        r2 = w[tid] * float(tid)
    result[tid] = r1
    res[tid] = r2
