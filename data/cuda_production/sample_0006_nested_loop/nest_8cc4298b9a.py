import warp as wp


@wp.kernel
def nest_8cc4298b9a(data: wp.array(dtype=float), table: wp.array2d(dtype=wp.float32), weights: wp.array2d(dtype=float), res: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    data_v = data[tid]
    total1 = float(0.0)
    for r in range(6):
        acc2 = float(0.0)
        for c in range(4):
            if table[tid, c] - data_v > data_v:
                break
            acc2 += weights[r, c] * data_v
        total1 = total1 + acc2
    res[tid] = total1
