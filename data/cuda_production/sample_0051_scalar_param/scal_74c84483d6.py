import warp as wp


DAMPING_74C84483D6 = wp.constant(1.125)

@wp.kernel
def scal_74c84483d6(src: wp.array(dtype=float), b: wp.array[float], alpha: float, beta: wp.float32, output: wp.array(dtype=wp.float32), output2: wp.array(dtype=wp.float32), y_out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    src_left = src[max(tid - 1, 0)]
    src_right = src[min(tid + 1, 1023)]
    src_v = src[tid]
    b_v = b[tid]
    combined1 = alpha * src_v + beta * b_v
    output[tid] = combined1
    output2[tid] = combined1 + DAMPING_74C84483D6
    y_out[tid] = src_right / (abs(src_left) + 1.0)
