import warp as wp


@wp.kernel
def arith_de4c3fba24(a: wp.array3d(dtype=float), y: wp.array3d(dtype=wp.float32), output: wp.array3d(dtype=wp.float32)):
    i, j, k = wp.tid()
    v1 = float(i)
    output[i, j, k] = (y[i, j, k] + a[i, j, k]) - v1
