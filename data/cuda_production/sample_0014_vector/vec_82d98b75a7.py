import warp as wp


@wp.kernel
def vec_82d98b75a7(data: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), a: wp.array(dtype=wp.vec3), w: wp.array[float], result: wp.array[wp.vec3], dst: wp.array[wp.float32]):
    tid = wp.tid()
    result[tid] = wp.vec3(w[tid] + w[tid], 1.5625 + w[tid], float(tid)) * 0.6875
    dst[tid] = wp.length(wp.max(b[tid], b[tid]) + (b[tid] * w[tid]))
