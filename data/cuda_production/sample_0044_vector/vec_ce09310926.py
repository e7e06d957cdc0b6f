import warp as wp


@wp.kernel
def vec_ce09310926(w: wp.array[wp.vec4], dst: wp.array[wp.vec4]):
    tid = wp.tid()
    w_v = w[tid]
    dst[tid] = 0.75 * w_v
