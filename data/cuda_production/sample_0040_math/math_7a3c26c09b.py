import warp as wp


@wp.kernel
def math_7a3c26c09b(x: wp.array(dtype=wp.float32), output: wp.array(dtype=float), y_out: wp.array[float], res: wp.array(dtype=float)):
    tid = wp.tid()
    x_v = x[tid]
    output[tid] = 0.5 * x_v
    y_out[tid] = wp.min(x_v, 0.5625)
    res[tid] = wp.exp(x_v * x_v)
