import warp as wp


@wp.kernel
def vec_90052b7dc4(data: wp.array[wp.vec2], output: wp.array(dtype=wp.vec2)):
    tid = wp.tid()
    data_v = data[tid]
    output[tid] = -data_v
