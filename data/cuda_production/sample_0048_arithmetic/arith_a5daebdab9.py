import warp as wp


@wp.kernel
def arith_a5daebdab9(q: wp.array(dtype=float), scaled: wp.array(dtype=float), p_out: wp.array(dtype=float)):
    tid = wp.tid()
    q_v = q[tid]
    scaled[tid] = -2.5 * q_v - 0.0625
    p_out[tid] = (-1.4375 * q_v + 2.1875) * q_v + 1.25
