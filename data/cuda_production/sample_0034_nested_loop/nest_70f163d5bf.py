import warp as wp


@wp.kernel
def nest_70f163d5bf(w: wp.array[wp.float32], coef: wp.array2d(dtype=wp.float32), dst: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    w_v = w[tid]
    total1 = float(0.0)
    for r in range(6):
        acc2 = float(0.0)
        for c in range(10):
            if wp.max(r, 3) <= c:
                break
            acc2 = acc2 + (coef[r, c] - w_v)
        total1 = total1 + acc2
    dst[tid] = total1
