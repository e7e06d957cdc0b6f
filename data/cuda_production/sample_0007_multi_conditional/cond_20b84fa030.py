import warp as wp


@wp.kernel
def cond_20b84fa030(a: wp.array[float], data: wp.array(dtype=wp.float32), shrunk: wp.array[float], activated: wp.array[float]):
    tid = wp.tid()
    a_v = a[tid]
    data_v = data[tid]
    shrunk1 = float(0.0)
    if a_v > 0.75:
        shrunk1 = a_v - 0.75
    elif a_v < -0.75:
        shrunk1 = a_v + 0.75
    act2 = float(0.0)
    if data_v > 0.0:
        act2 = data_v
    else:
        act2 = 0.2 * data_v
    shrunk[tid] = shrunk1
    activated[tid] = act2
