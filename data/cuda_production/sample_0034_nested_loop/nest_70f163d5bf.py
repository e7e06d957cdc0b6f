import warp as wp


@wp.kernel
def nest_70f163d5bf(lhs: wp.array2d(dtype=float), B: wp.array2d(dtype=float), C: wp.array2d(dtype=float), alpha: float, beta: float):
    tid = wp.tid()
    for j in range(6):
        s = float(0.0)
        for k in range(8):
            s = s + lhs[tid, k] * B[k, j]
        C[tid, j] = alpha * s + beta * C[tid, j]
