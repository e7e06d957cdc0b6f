import warp as wp


@wp.kernel
def nest_2bcb261184(data: wp.array[float], coef: wp.array2d(dtype=float), result: wp.array[float]):
    tid = wp.tid()
    total1 = float(0.0)
    for r in range(5):
        acc2 = float(0.0)
        for c in range(2):
            acc2 += coef[r, c] + wp.min(coef[r, c], data[tid])
        total1 = total1 + acc2
    result[tid] = total1
