import warp as wp


@wp.kernel
def ctrl_b4599bf2fd(src: wp.array[float], b: wp.array(dtype=wp.float32), w: wp.array(dtype=float), res: wp.array(dtype=float), dst: wp.array[float]):
    tid = wp.tid()
    src_v = src[tid]
    b_v = b[tid]
    w_v = w[tid]
    acc2 = float(0.0)
    c1 = int(0)
    while c1 < 5:
        acc2 = acc2 + w_v
        c1 = c1 + 1
    v3 = wp.where(-src_v <= b_v, acc2 + src_v, b_v / (wp.abs(src_v) + 1.0))
    res[tid] = wp.max(v3, float(tid))
    dst[tid] = 0.5 * wp.min(float(tid), w_v)
