import warp as wp


@wp.kernel
def arith_14e66af3bd(x: wp.array(dtype=wp.float32), sq_signed: wp.array(dtype=wp.float32), clamped: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    x_v = x[tid]
    sq_signed[tid] = x_v * wp.abs(x_v)
    clamped[tid] = wp.min(wp.max(x_v, 0.0), 1.5)
