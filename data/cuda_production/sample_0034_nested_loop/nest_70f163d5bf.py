import warp as wp


@wp.kernel
def nest_70f163d5bf(lhs: wp.array2d(dtype=float), B: wp.array2d(dtype=float), col_bias: wp.array(dtype=float), C: wp.array2d(dtype=float), k_dim: int, blend: float):
    tid = wp.tid()
    for j in range(B.shape[1]):
        s = col_bias[j]
        for k in range(k_dim):
            s += lhs[tid, k] * B[k, j]
        C[tid, j] = (1.0 - blend) * C[tid, j] + blend * s
