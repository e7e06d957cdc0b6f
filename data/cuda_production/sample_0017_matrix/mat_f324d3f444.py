import warp as wp


@wp.kernel
def mat_f324d3f444(tensors: wp.array[wp.mat22], lambdas: wp.array[wp.vec2]):
    tid = wp.tid()
    tensors_v = tensors[tid]
    S = 0.5 * (tensors_v + wp.transpose(tensors_v))
    half_tr = 0.5 * wp.trace(S)
    disc = wp.sqrt(wp.max(half_tr * half_tr - wp.determinant(S), 0.0))
    lambdas[tid] = wp.vec2(half_tr + disc, half_tr - disc)
