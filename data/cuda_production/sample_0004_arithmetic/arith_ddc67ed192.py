import warp as wp


@wp.kernel
def arith_ddc67ed192(u: wp.array2d(dtype=int), dst: wp.array2d(dtype=wp.int32), res: wp.array2d(dtype=int)):
    i, j = wp.tid()
    n1 = min(4, u[i, j])
    n2 = wp.max(wp.min(n1 * i, u[i, j]), j)
    dst[i, j] = min(max(u[i, j], n2) - (n1 // 4), wp.abs(n2 + n1))
    res[i, j] = (u[i, j] // (-3)) * (u[i, j] % 7)
