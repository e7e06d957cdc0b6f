import warp as wp


@wp.kernel
def arith_64c0f1ebd3(w: wp.array2d(dtype=float), p_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    w_v = w[i, j]
    p_out[i, j] = ((1.4375 * w_v + 1.375) * w_v - 0.125) * w_v - 2.1875
