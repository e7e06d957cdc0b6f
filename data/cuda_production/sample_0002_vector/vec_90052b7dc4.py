import warp as wp


@wp.kernel
def vec_90052b7dc4(data: wp.array[wp.vec2], inp: wp.array(dtype=float), perm: wp.array[wp.int32], res: wp.array[wp.vec2], y_out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    perm_v = perm[tid]
    data_g = data[perm_v]
    data_v = data[tid]
    inp_v = inp[tid]
    t1 = (-(inp_v * data_g)) * (-(inp_v * (-2.0625)))
    res[tid] = wp.normalize(data_g) + t1
    y_out[tid] = wp.dot(wp.normalize(data_v), t1)
