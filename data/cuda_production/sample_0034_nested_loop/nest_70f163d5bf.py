import warp as wp


@wp.kernel
def nest_70f163d5bf(lhs: wp.array2d(dtype=wp.float32), B: wp.array2d(dtype=wp.float32), product: wp.array2d(dtype=float)):
    tid = wp.tid()
    for j in range(6):
        s = float(0.0)
        for k in range(lhs.shape[1]):
            s = s + lhs[tid, k] * B[k, j]
        product[tid, j] = s
