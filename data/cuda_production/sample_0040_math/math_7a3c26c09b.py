import warp as wp


@wp.kernel
def math_7a3c26c09b(x: wp.array(dtype=wp.float32), y_out: wp.array(dtype=wp.float32), result: wp.array(dtype=float), output: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    x_v = x[tid]
    y_out[tid] = 0.75 * x_v
    result[tid] = 0.75 * x_v
    output[tid] = wp.exp(wp.clamp(wp.exp(x_v), -2.0, 2.0))
