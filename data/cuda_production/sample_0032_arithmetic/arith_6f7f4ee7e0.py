import warp as wp


@wp.kernel
def arith_6f7f4ee7e0(vals: wp.array(dtype=float), mapped: wp.array(dtype=float), fade: wp.array(dtype=float), calibrated: wp.array(dtype=float)):
    tid = wp.tid()
    vals_v = vals[tid]
    t = wp.clamp(vals_v, 0.0, 1.0)
    mapped[tid] = 0.4375 * vals_v - 2.0
    fade[tid] = t * t * (3.0 - 2.0 * t)
    calibrated[tid] = 2.3125 * vals_v - 2.0
