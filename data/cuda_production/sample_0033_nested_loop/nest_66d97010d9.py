import warp as wp


@wp.kernel
def nest_66d97010d9(a: wp.array(dtype=wp.float32), u: wp.array(dtype=wp.float32), table: wp.array2d(dtype=float), weights: wp.array2d(dtype=wp.float32), dst: wp.array[wp.float32]):
    tid = wp.tid()
    total1 = float(0.0)
    for r in range(3):
        acc2 = float(0.0)
        for c in range(4):
            if wp.abs(table[tid, c]) < a[tid]:
                break
            acc2 = acc2 + ((table[tid, c] * weights[r, c]) + wp.abs(a[tid]))
        acc3 = acc2
        for d in range(2):
            acc3 = acc3 + wp.abs(u[tid])
        total1 = total1 + acc3
    dst[tid] = total1
