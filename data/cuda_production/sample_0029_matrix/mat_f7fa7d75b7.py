import warp as wp


@wp.kernel
def mat_f7fa7d75b7(u: wp.array[wp.mat33], y2: wp.array(dtype=wp.vec3), y_out: wp.array(dtype=float), output: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    u_v = u[tid]
    y2_v = y2[tid]
    m1 = u_v @ ((-2.5) * u_v)
    m2 = wp.outer(y2_v, y2_v)
    y_out[tid] = m2[1, 0]
    output[tid] = m1 @ y2_v
