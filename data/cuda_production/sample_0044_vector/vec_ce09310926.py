import warp as wp


@wp.kernel
def vec_ce09310926(w: wp.array[wp.vec4], a: wp.array[wp.float32], src_idx: wp.array[wp.int32], output: wp.array[float]):
    tid = wp.tid()
    src_idx_v = src_idx[tid]
    w_g = w[src_idx_v]
    w_v = w[tid]
    a_v = a[tid]
    t1 = w_g - w_v
    output[tid] = wp.dot(-t1, t1 * a_v)
