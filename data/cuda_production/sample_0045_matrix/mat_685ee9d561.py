import warp as wp


@wp.kernel
def mat_685ee9d561(x: wp.array(dtype=wp.mat33), p: wp.array[wp.float32], dst: wp.array(dtype=float), out: wp.array[wp.mat33]):
    tid = wp.tid()
    p_v = p[tid]
    x_v = x[tid]
    m1 = wp.outer(wp.normalize(wp.vec3(p_v * (-2.4375), 1.25, wp.abs(p_v))), wp.vec3(p_v, -p_v, p_v))
    dst[tid] = m1[0][2]
    out[tid] = m1 - x_v
