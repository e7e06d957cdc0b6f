import warp as wp


@wp.kernel
def nest_70f163d5bf(rows: wp.array2d(dtype=float), coef: wp.array2d(dtype=wp.float32), result: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    total1 = float(0.0)
    for r in range(6):
        acc2 = float(0.0)
        for c in range(10):
            acc2 += (rows[tid, c] * coef[r, c]) - rows[tid, c]
        total1 = total1 + acc2
    result[tid] = total1
