import warp as wp


@wp.kernel
def mat_4ad2e081d9(x: wp.array(dtype=wp.vec3), res: wp.array[wp.float32]):
    tid = wp.tid()
    x_v = x[tid]
    m1 = wp.outer(x_v, x_v)
    res[tid] = m1[0][0]
