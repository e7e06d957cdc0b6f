import warp as wp


@wp.kernel(module="unique")
def scal_1328e18f58(u: wp.array[wp.float32], shift: wp.int32, hi: wp.float32, lo: wp.float32, offset: wp.float32, shifted: wp.array[wp.float32], iterations: wp.int32, sqrt_out: wp.array[wp.float32]):
    tid = wp.tid()
    u_next = u[(tid + shift) % u.shape[0]]
    u_v = u[tid]
    limited = wp.clamp(u_next, lo, hi)
    shifted[tid] = limited - offset
    a = 1.0 + u_v * u_v
    root = a
    for s in range(iterations):
        root = 0.5 * (root + a / root)
    sqrt_out[tid] = root
