import warp as wp


@wp.kernel
def mat_b8318ffa9b(x: wp.array(dtype=wp.mat22), u: wp.array(dtype=float), dst: wp.array[float]):
    tid = wp.tid()
    m1 = x[tid] + ((1.0 * x[tid]) + x[tid])
    m2 = wp.outer(wp.vec2(u[tid], wp.max(u[tid], u[tid])), wp.vec2(u[tid], u[tid] + (-2.25))) @ x[tid]
    m3 = m1 - m2
    dst[tid] = m3[1][0]
