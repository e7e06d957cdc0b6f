import warp as wp


@wp.kernel
def vec_5b63ccf236(data: wp.array(dtype=wp.vec3), dst: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    data_v = data[tid]
    dst[tid] = 2.0 * data_v
