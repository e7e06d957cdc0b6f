import warp as wp


@wp.kernel
def mat_87c4765000(active: wp.array[int], systems: wp.array[wp.mat22], rhs: wp.array[wp.vec2], lam: wp.array[float], coeffs: wp.array[wp.vec2]):
    tid = wp.tid()
    i = active[tid]
    M = systems[i] + lam[i] * wp.identity(n=2, dtype=float)
    coeffs[i] = wp.inverse(M) @ rhs[i]
