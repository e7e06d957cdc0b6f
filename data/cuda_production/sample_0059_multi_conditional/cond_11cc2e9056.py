import warp as wp


@wp.kernel
def cond_11cc2e9056(src: wp.array[float], res: wp.array[float], y_out: wp.array[wp.float32]):
    tid = wp.tid()
    src_v = src[tid]
    r1 = src_v
    r2 = src_v
    if 0.5 <= src_v:
        r2 = src_v
        r1 = -0.125
    elif (-src_v < 0.1875) or (src_v > 1.0625):
        r1 = wp.abs(r1)
    else:
        r2 = src_v
        if (min(1.875, src_v) > -0.8125) and (src_v > 1.0):
            r1 = -0.4375
        elif src_v < 1.1875:
            r1 = src_v
        elif (src_v > 1.6875) or (wp.abs(src_v) >= 1.4375):
            r1 = src_v
        elif src_v < -0.1875:
            r1 = wp.abs(src_v)
    if (src_v <= 0.125) and (src_v > -1.0):
        r1 = 0.9375
        r2 = src_v
    elif not (src_v > 0.0):
        r1 = src_v
    elif not (-0.5 >= src_v):
        r1 = src_v
        if not (src_v > 1.0):
            r2 = -1.6875
        elif src_v <= -0.625:
            r2 = src_v
        elif src_v > 1.0:
            r2 = src_v
        else:
            r2 = src_v
    res[tid] = r1
    y_out[tid] = r2
