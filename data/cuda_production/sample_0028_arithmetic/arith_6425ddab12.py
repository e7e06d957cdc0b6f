import warp as wp


@wp.kernel
def arith_6425ddab12(q: wp.array[wp.float32], sq_signed: wp.array[wp.float32], p_out: wp.array[wp.float32]):
    tid = wp.tid()
    q_v = q[tid]
    sq_signed[tid] = q_v * wp.abs(q_v)
    p_out[tid] = ((-0.125 * q_v - 2.125) * q_v + 2.375) * q_v - 0.8125
