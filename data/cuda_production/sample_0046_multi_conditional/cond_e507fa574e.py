import warp as wp


@wp.kernel
def cond_e507fa574e(src: wp.array(dtype=wp.float32), result: wp.array[wp.float32], out: wp.array[float]):
    tid = wp.tid()
    src_v = src[tid]
    src_left = src[wp.max(tid - 1, 0)]
    src_right = src[min(tid + 1, 99)]
    lap1 = src_left + src_right - 2.0 * src_v
    r2 = float(0.0)
    r3 = float(0.0)
    if tid // 5 < 5:
        r3 = lap1
        r2 = 1.1875
    else:
        r3 = src_v
        r2 = src_v - float(tid)
    if src_v <= lap1:
        r3 = wp.max(lap1, 0.375)
        r2 = src_v
    elif (src_v >= lap1) or (tid // 7 <= 3):
        r3 = wp.max(float(tid), lap1)
        if (-0.6875 >= lap1) or (1.625 >= src_v):
            r2 = -1.25
        elif not (src_v <= lap1):
            r2 = src_v
        else:
            r2 = max(2.25, src_v - lap1)
    result[tid] = r2
    out[tid] = r3
