import warp as wp


@wp.kernel
def nest_3de07a4369(y: wp.array[float], b: wp.array[wp.float32], table: wp.array2d(dtype=float), result: wp.array[float]):
    tid = wp.tid()
    y_v = y[tid]
    b_v = b[tid]
    total1 = float(0.0)
    for r in range(4):
        acc2 = float(0.0)
        for c in range(5):
            if wp.min(b_v, y_v) < y_v:
                break
            acc2 += table[tid, c] - y_v
        total1 = total1 + acc2
    result[tid] = total1
