import warp as wp


@wp.kernel
def arith_6425ddab12(q: wp.array[wp.float32], signed_sq: wp.array[wp.float32], poly: wp.array[wp.float32]):
    tid = wp.tid()
    q_v = q[tid]
    signed_sq[tid] = q_v * wp.abs(q_v)
    poly[tid] = ((-2.125 * q_v + 2.375) * q_v - 0.8125) * q_v + 0.6875
