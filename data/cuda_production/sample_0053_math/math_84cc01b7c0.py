import warp as wp


@wp.kernel
def math_84cc01b7c0(w: wp.array[wp.float32], out: wp.array[wp.float32], output: wp.array[float]):
    tid = wp.tid()
    w_v = w[tid]
    v1 = wp.cos(wp.cos(w_v))
    out[tid] = wp.floor(w_v) - v1
    output[tid] = wp.sqrt(wp.abs(float(tid) - w_v))
