import warp as wp


@wp.kernel(enable_backward=False)
def mat_7e3907f5c9(active: wp.array(dtype=int), mats: wp.array(dtype=wp.mat22), v0: wp.array(dtype=wp.vec2), eigvec: wp.array(dtype=wp.vec2), rayleigh: wp.array(dtype=float)):
    tid = wp.tid()
    i = active[tid]
    mats_i = mats[i]
    v0_i = v0[i]
    A = mats_i @ wp.transpose(mats_i) + wp.identity(n=2, dtype=float)
    v_it = wp.normalize(v0_i)
    for it in range(6):
        v_it = wp.normalize(A @ v_it)
    eigvec[i] = v_it
    rayleigh[i] = wp.dot(v_it, A @ v_it)
