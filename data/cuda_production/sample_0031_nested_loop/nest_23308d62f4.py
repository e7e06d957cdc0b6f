import warp as wp


@wp.kernel
def nest_23308d62f4(y: wp.array(dtype=float), table: wp.array2d(dtype=wp.float32), weights: wp.array2d(dtype=float), out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    total1 = float(0.0)
    for r in range(3):
        acc2 = float(0.0)
        for c in range(3):
            acc2 += (table[tid, c] * weights[r, c]) + y[tid]
        total1 = total1 + acc2
    out[tid] = total1
