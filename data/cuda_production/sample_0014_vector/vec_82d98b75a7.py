import warp as wp


@wp.kernel
def vec_82d98b75a7(data: wp.array(dtype=wp.vec3), a: wp.array(dtype=wp.vec3), out: wp.array[float]):
    tid = wp.tid()
    s1 = wp.length(data[tid])
    t2 = a[tid]
    t3 = t2
    t4 = (t3 + a[tid]) + t3
    out[tid] = t4.z + s1
