import warp as wp


@wp.kernel
def mat_7516b94bd3(mask: wp.array(dtype=int), A: wp.array(dtype=wp.mat44), dx: wp.array(dtype=wp.vec4), v: wp.array(dtype=wp.vec4), updated: wp.array(dtype=wp.mat44)):
    tid = wp.tid()
    if mask[tid] == 0:
        return
    A_v = A[tid]
    dx_v = dx[tid]
    v_v = v[tid]
    updated[tid] = A_v + -0.5 * wp.outer(dx_v, v_v)
