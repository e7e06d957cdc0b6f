import warp as wp


@wp.kernel
def math_f349515bf0(src: wp.array[wp.float32], u: wp.array(dtype=wp.float32), q: wp.array[float], output: wp.array(dtype=wp.float32), y_out: wp.array[wp.float32]):
    tid = wp.tid()
    src_v = src[tid]
    u_v = u[tid]
    q_v = q[tid]
    v1 = wp.sin(wp.log(1.0 + wp.exp(u_v)))
    output[tid] = -wp.log(wp.exp(-q_v) + wp.exp(-src_v))
    y_out[tid] = v1
