import warp as wp


@wp.kernel
def vec_9b43be9137(u: wp.array(dtype=wp.vec4), out: wp.array(dtype=wp.vec4)):
    tid = wp.tid()
    u_v = u[tid]
    out[tid] = wp.min(wp.vec4(-0.3125, -1.875, 0.5625, -0.625), u_v) + (-u_v)
