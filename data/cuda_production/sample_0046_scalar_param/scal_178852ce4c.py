import warp as wp


@wp.kernel
def scal_178852ce4c(vals: wp.array(dtype=wp.float32), p: wp.array(dtype=float), offset: float, scale: float, result: wp.array(dtype=float)):
    tid = wp.tid()
    v1 = min(p[tid], vals[tid])
    result[tid] = ((scale / (wp.abs(vals[tid]) + 1.0)) - offset) + v1
