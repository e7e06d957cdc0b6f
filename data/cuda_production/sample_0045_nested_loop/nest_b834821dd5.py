import warp as wp


@wp.kernel
def nest_b834821dd5(x: wp.array(dtype=wp.float32), a: wp.array[wp.float32], grid: wp.array2d(dtype=float), dst: wp.array[float]):
    tid = wp.tid()
    x_v = x[tid]
    a_v = a[tid]
    total1 = float(0.0)
    for r in range(3):
        acc2 = float(0.0)
        for c in range(3):
            acc2 = acc2 + (grid[tid, c] * max(x_v, a_v))
        acc3 = acc2
        for d in range(3):
            acc3 = acc3 + a_v
        total1 = total1 + acc3
    dst[tid] = total1
