import warp as wp


@wp.kernel
def nest_8cc4298b9a(data: wp.array(dtype=float), table: wp.array2d(dtype=wp.float32), weights: wp.array2d(dtype=float), result: wp.array[wp.float32]):
    tid = wp.tid()
    data_v = data[tid]
    total1 = float(0.0)
    for r in range(6):
        acc2 = float(0.0)
        for c in range(4):
            acc2 += (table[tid, c] * weights[r, c]) * data_v
        total1 = total1 + acc2
    result[tid] = total1
