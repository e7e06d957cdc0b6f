import warp as wp


@wp.kernel
def arith_64c0f1ebd3(q: wp.array2d(dtype=wp.float32), x: wp.array2d(dtype=wp.float32), src: wp.array2d(dtype=float), w: wp.array2d(dtype=float), y_out: wp.array2d(dtype=wp.float32), output: wp.array2d(dtype=float), res: wp.array2d(dtype=float)):
    i, j = wp.tid()
    q_v = q[i, j]
    x_v = x[i, j]
    src_v = src[i, j]
    w_v = w[i, j]
    d1 = q_v - x_v
    v2 = -wp.abs(w_v)
    y_out[i, j] = (2.4375 * src_v + 0.125) * src_v - 0.6875
    output[i, j] = d1 * d1
    res[i, j] = (-(src_v / 2.0)) + v2
