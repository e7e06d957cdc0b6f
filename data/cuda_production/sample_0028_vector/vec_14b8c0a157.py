import warp as wp


@wp.kernel
def vec_14b8c0a157(u: wp.array(dtype=wp.vec4), idx: wp.array[int], y_out: wp.array[wp.vec4]):
    tid = wp.tid()
    idx_v = idx[tid]
    u_g = u[idx_v]
    u_v = u[tid]
    t1 = wp.normalize(u_v + u_g)
    y_out[tid] = wp.normalize(t1)
