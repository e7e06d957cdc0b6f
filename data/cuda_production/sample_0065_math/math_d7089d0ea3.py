import warp as wp


@wp.kernel
def math_d7089d0ea3(data: wp.array[wp.float32], q: wp.array[wp.float32], frac: wp.array[wp.float32], proj: wp.array[wp.float32]):
    tid = wp.tid()
    q_v = q[tid]
    frac[tid] = q_v - wp.floor(q_v)
    proj[tid] = q_v * wp.cos(data[tid])
