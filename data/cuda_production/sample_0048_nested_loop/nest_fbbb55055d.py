import warp as wp


@wp.kernel
def nest_fbbb55055d(a: wp.array(dtype=wp.float32), x: wp.array[wp.float32], table: wp.array2d(dtype=float), coef: wp.array2d(dtype=float), inner: wp.int32, coef2: wp.array[wp.float32], output: wp.array(dtype=float)):
    tid = wp.tid()
    a_v = a[tid]
    x_v = x[tid]
    total1 = float(0.0)
    for r in range(2):
        acc2 = float(0.0)
        for c in range(inner):
            acc2 = acc2 + ((table[tid, c] * coef[r, c]) * x_v)
        acc3 = acc2
        for d in range(3):
            acc3 = acc3 + (coef2[d] * (-a_v))
        total1 = total1 + acc3
    output[tid] = total1
