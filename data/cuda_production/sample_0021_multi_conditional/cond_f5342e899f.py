import warp as wp


@wp.kernel
def cond_f5342e899f(y: wp.array(dtype=float), output: wp.array(dtype=float), result: wp.array[float]):
    tid = wp.tid()
    y_v = y[tid]
    r1 = y_v * y_v
    r2 = float(-0.375)
    mag3 = wp.abs(y_v)
    if mag3 <= 0.5:
        r1 = y_v
    elif mag3 <= 1.5:
        r1 = r2
        r2 = y_v
    else:
        r2 = 1.6875 + y_v
        r1 = (r1 / (wp.abs(y_v) + 2.0)) + y_v
    output[tid] = r1
    result[tid] = r2
