import warp as wp


OFFSET_11CC2E9056 = wp.constant(1.5625)

@wp.kernel
def cond_11cc2e9056(data: wp.array(dtype=float), vals: wp.array[float], b: wp.array(dtype=float), dst: wp.array(dtype=wp.float32), res: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    data_v = data[tid]
    vals_v = vals[tid]
    b_v = b[tid]
    r1 = (-0.8125) - b_v
    r2 = vals_v / 2.0
    if (float(tid) * data_v >= OFFSET_11CC2E9056) and (vals_v - b_v < vals_v):
        r2 = float(tid) + data_v
    else:
        r1 = b_v
    if b_v > data_v:
        r1 = b_v / 2.0
        if float(tid) / 4.0 < data_v:
            r2 = (data_v / 0.5) + float(tid)
        elif (b_v > 0.375) or (float(tid) * 2.4375 < OFFSET_11CC2E9056):
            r2 = data_v * (-2.25)
        elif (data_v + b_v <= b_v) and (OFFSET_11CC2E9056 <= float(tid)):
            r2 = b_v / -2.0
        elif tid / 5 <= 1:
            r2 = float(tid)
    elif (8 > tid) or (vals_v > b_v):
        r1 = float(tid)
        if -0.6875 < vals_v:
            r2 = float(tid) - vals_v
        elif vals_v * OFFSET_11CC2E9056 >= OFFSET_11CC2E9056:
            r2 = vals_v
        elif float(tid) * OFFSET_11CC2E9056 >= vals_v:
            r2 = data_v / 2.0
        else:
            r2 = (OFFSET_11CC2E9056 * b_v) / 8.0
    elif not (vals_v + 1.75 > data_v):
        r2 = vals_v
        r1 = vals_v
    dst[tid] = r1
    res[tid] = r2
