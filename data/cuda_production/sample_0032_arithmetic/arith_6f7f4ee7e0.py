import warp as wp


@wp.kernel
def arith_6f7f4ee7e0(vals: wp.array(dtype=float), mapped: wp.array(dtype=float), ease: wp.array(dtype=float), p_out: wp.array(dtype=float), sq_signed: wp.array(dtype=float)):
    tid = wp.tid()
    vals_v = vals[tid]
    t = wp.clamp(vals_v, 0.0, 1.0)
    mapped[tid] = 0.4375 * vals_v - 2.0
    ease[tid] = t * t * (3.0 - 2.0 * t)
    p_out[tid] = (2.4375 * vals_v - 2.3125) * vals_v + 0.4375
    sq_signed[tid] = vals_v * wp.abs(vals_v)
