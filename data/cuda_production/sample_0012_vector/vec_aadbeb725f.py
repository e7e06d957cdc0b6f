import warp as wp


@wp.kernel
def vec_aadbeb725f(b: wp.array(dtype=wp.vec3), u: wp.array[wp.vec3], w: wp.array[wp.float32], y_out: wp.array[wp.vec3], y_out2: wp.array[wp.float32]):
    tid = wp.tid()
    t1 = wp.cross(u[tid], b[tid] * w[tid]) - wp.max(u[tid] - b[tid], u[tid] - u[tid])
    t2 = wp.max((w[tid] - w[tid]) * wp.max(t1, t1), u[tid])
    y_out[tid] = -wp.normalize(t2)
    y_out2[tid] = wp.dot(t1, wp.vec3(wp.abs(w[tid]), w[tid], w[tid]))
