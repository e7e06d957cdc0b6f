import warp as wp


@wp.kernel
def arith_e7166c444d(u: wp.array2d(dtype=float), sq_signed: wp.array2d(dtype=float), smooth: wp.array2d(dtype=float), clamped: wp.array2d(dtype=float)):
    i, j = wp.tid()
    u_v = u[i, j]
    t = wp.clamp(u_v, 0.0, 1.0)
    sq_signed[i, j] = u_v * wp.abs(u_v)
    smooth[i, j] = t * t * (3.0 - 2.0 * t)
    clamped[i, j] = wp.min(wp.max(u_v, 0.0), 1.5)
