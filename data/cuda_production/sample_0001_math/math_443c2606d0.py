import warp as wp


@wp.kernel
def math_443c2606d0(q: wp.array[float], inp: wp.array(dtype=wp.float32), res: wp.array[wp.float32], output: wp.array(dtype=float), res2: wp.array(dtype=float)):
    tid = wp.tid()
    q_v = q[tid]
    inp_v = inp[tid]
    res[tid] = 0.25 * inp_v
    output[tid] = -inp_v
    res2[tid] = wp.ceil(q_v)
