import warp as wp


@wp.kernel
def scal_8a7074eca1(vals: wp.array2d(dtype=float), inp: wp.array2d(dtype=float), threshold: wp.float32, n_iter: int, dst: wp.array2d(dtype=float), out: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    v1 = inp[i, j] + inp[i, j]
    v2 = wp.max(v1, vals[i, j] + (threshold + inp[i, j]))
    v3 = -v2
    acc4 = float(0.0)
    for s in range(n_iter):
        acc4 += max(v3, v1)
    dst[i, j] = (-2.3125) + acc4
    out[i, j] = inp[i, j] / (wp.abs(max(v1 + float(j), vals[i, j] / 1.5)) + 0.5)
