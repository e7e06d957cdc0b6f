import warp as wp


@wp.kernel
def mat_c8c0bb3ed0(indices: wp.array[wp.int32], A: wp.array[wp.mat22], targets: wp.array[wp.vec2], damping: wp.array[wp.float32], coeffs: wp.array[wp.vec2]):
    tid = wp.tid()
    i = indices[tid]
    M = A[i] + damping[i] * wp.identity(n=2, dtype=wp.float32)
    M_inv = wp.inverse(M)
    coeffs[i] = M_inv @ targets[i]
