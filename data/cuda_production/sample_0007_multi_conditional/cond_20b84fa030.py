import warp as wp


@wp.kernel
def cond_20b84fa030(a: wp.array[float], alpha: float, shrunk: wp.array[float], activated: wp.array[float], smoothing: float):
    tid = wp.tid()
    a_v = a[tid]
    shrunk_val = float(0.0)
    if a_v > 0.75:
        shrunk_val = a_v - 0.75
    elif a_v < -1.25:
        shrunk_val = a_v + 1.25
    act = float(0.0)
    if a_v > 0.0:
        act = a_v
    else:
        act = alpha * (wp.exp(a_v) - 1.0)
    shrunk[tid] = (1.0 - smoothing) * shrunk[tid] + smoothing * shrunk_val
    activated[tid] = act
