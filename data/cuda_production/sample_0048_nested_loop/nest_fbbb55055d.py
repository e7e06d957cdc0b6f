import warp as wp


@wp.kernel
def nest_fbbb55055d(x: wp.array[wp.float32], coef: wp.array2d(dtype=float), inner: wp.int32, dst: wp.array[wp.float32]):
    tid = wp.tid()
    x_v = x[tid]
    total1 = float(0.0)
    for r in range(2):
        acc2 = float(0.0)
        for c in range(inner):
            acc2 = acc2 + (coef[r, c] * x_v)
        total1 = total1 + acc2
    dst[tid] = total1
