import warp as wp


@wp.func
def max_shear(m: wp.mat22) -> float:
    S = 0.5 * (m + wp.transpose(m))
    half_tr = 0.5 * wp.trace(S)
    disc = wp.sqrt(wp.max(half_tr * half_tr - wp.determinant(S), 0.0))
    return disc

@wp.kernel
def mat_f324d3f444(sigma: wp.array[wp.mat22], tau_max: wp.array[float]):
    tid = wp.tid()
    sigma_v = sigma[tid]
    tau_max[tid] = max_shear(sigma_v)
