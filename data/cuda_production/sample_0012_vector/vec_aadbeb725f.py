import warp as wp


@wp.kernel
def vec_aadbeb725f(b: wp.array(dtype=wp.vec3), u: wp.array[wp.vec3], w: wp.array[wp.float32], result: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    t1 = wp.cross(u[tid], u[tid])
    t2 = u[tid]
    t3 = wp.vec3(max(w[tid], w[tid]), w[tid], wp.abs(1.125))
    result[tid] = wp.max(t1, t1)
