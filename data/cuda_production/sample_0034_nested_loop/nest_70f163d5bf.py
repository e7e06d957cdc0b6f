import warp as wp


@wp.kernel
def nest_70f163d5bf(table: wp.array2d(dtype=float), coef: wp.array2d(dtype=float), res: wp.array[wp.float32]):
    tid = wp.tid()
    total1 = float(0.0)
    for r in range(4):
        acc2 = float(0.0)
        for c in range(2):
            acc2 += coef[r, c] - table[tid, c]
        total1 = total1 + acc2
    res[tid] = total1
