import warp as wp


@wp.kernel
def sten_f1fa1b491f(rho: wp.array(dtype=wp.float32), u_src: wp.array(dtype=wp.float32), strength: wp.float32):
    tid = wp.tid()
    if 0 < tid < rho.shape[0] - 1:
        src = strength * wp.sin(wp.pi * wp.float32(tid) / wp.float32(rho.shape[0] - 1))
        c = rho[tid]
        u_src[tid] = c + src
    else:
        u_src[tid] = rho[tid]
