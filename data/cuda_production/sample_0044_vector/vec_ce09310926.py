import warp as wp


@wp.kernel
def vec_ce09310926(w: wp.array[wp.vec4], dst: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    w_v = w[tid]
    dst[tid] = 0.5 * w_v[2]
