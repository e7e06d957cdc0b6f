import warp as wp


@wp.kernel
def arith_a5daebdab9(q: wp.array(dtype=float), clamped: wp.array(dtype=float), sq_signed: wp.array(dtype=float)):
    tid = wp.tid()
    q_v = q[tid]
    clamped[tid] = wp.clamp(q_v, 0.0, 1.0)
    sq_signed[tid] = q_v * wp.abs(q_v)
