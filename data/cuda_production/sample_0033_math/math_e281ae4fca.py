import warp as wp


@wp.kernel
def math_e281ae4fca(vals: wp.array[float], theta: wp.array[float], degrees_out: wp.array[float]):
    tid = wp.tid()
    angle = wp.acos(wp.clamp(vals[tid], -1.0, 1.0))
    theta[tid] = angle
    degrees_out[tid] = wp.degrees(angle)
