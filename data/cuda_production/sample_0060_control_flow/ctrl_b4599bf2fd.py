import warp as wp


@wp.kernel
def ctrl_b4599bf2fd(src: wp.array[float], b: wp.array(dtype=wp.float32), w: wp.array(dtype=float), out: wp.array(dtype=float), y_out: wp.array[wp.float32]):
    tid = wp.tid()
    src_v = src[tid]
    b_v = b[tid]
    w_v = w[tid]
    acc2 = float(0.0)
    c1 = int(0)
    while c1 < 5:
        acc2 = w_v + 0.75 * wp.sin(acc2)
        c1 = c1 + 1
    v3 = wp.where(wp.max(w_v, b_v) > src_v, src_v, acc2)
    out[tid] = v3 / (abs(min(src_v, v3)) + 1.0)
    y_out[tid] = wp.min(src_v / (wp.abs(b_v) + 1.0), w_v)
