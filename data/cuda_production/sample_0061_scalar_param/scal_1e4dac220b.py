import warp as wp


@wp.kernel
def scal_1e4dac220b(inp: wp.array3d(dtype=float), offset: float, eps: wp.float32, gain: wp.float32, n_iter: wp.int32, output: wp.array3d(dtype=float), y_out: wp.array3d(dtype=wp.float32)):
    i, j, k = wp.tid()
    inp_v = inp[i, j, k]
    v1 = (inp_v - float(j)) / (wp.abs(float(j) * float(k)) + 0.5)
    acc2 = float(0.0)
    for s in range(n_iter):
        acc2 = acc2 + inp_v
    output[i, j, k] = (((acc2 - offset) - eps) - gain) + v1
    y_out[i, j, k] = gain - inp_v
