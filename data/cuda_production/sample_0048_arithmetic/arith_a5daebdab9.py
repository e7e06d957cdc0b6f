import warp as wp


@wp.kernel
def arith_a5daebdab9(q: wp.array(dtype=float), signed_sq: wp.array(dtype=float), scaled: wp.array(dtype=float)):
    tid = wp.tid()
    q_v = q[tid]
    signed_sq[tid] = q_v * wp.abs(q_v)
    scaled[tid] = -1.4375 * q_v - 0.5
