import warp as wp


@wp.kernel
def math_f1a22a6cfd(vals: wp.array(dtype=float), src: wp.array(dtype=wp.float32), result: wp.array(dtype=float), result2: wp.array(dtype=float)):
    tid = wp.tid()
    result[tid] = vals[tid]
    result2[tid] = wp.floor(src[tid])
