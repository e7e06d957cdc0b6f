import warp as wp


@wp.kernel
def sten_6763101781(density: wp.array(dtype=wp.float32), forced: wp.array(dtype=wp.float32), strength: wp.float32):
    tid = wp.tid()
    if 0 < tid < density.shape[0] - 1:
        src = strength * wp.sin(wp.pi * float(tid) / float(density.shape[0] - 1))
        center = density[tid]
        forced[tid] = center + src
    else:
        forced[tid] = density[tid]
