import warp as wp


@wp.func
def neo_hookean_energy(F: wp.mat33, mu: float, lam: float) -> float:
    J = wp.determinant(F)
    Ic = wp.ddot(F, F)
    alpha = 1.0 + mu / lam
    return 0.5 * mu * (Ic - 3.0) + 0.5 * lam * (J - alpha) * (J - alpha)

@wp.kernel
def mat_6d5e12c3cc(x: wp.array[wp.vec3], tet_indices: wp.array2d[int], inv_rest: wp.array[wp.mat33], mu: float, bulk: float, energy: wp.array[float], relax: float):
    tid = wp.tid()
    x0 = x[tet_indices[tid, 0]]
    x1 = x[tet_indices[tid, 1]]
    x2 = x[tet_indices[tid, 2]]
    x3 = x[tet_indices[tid, 3]]
    Ds = wp.matrix_from_cols(x1 - x0, x2 - x0, x3 - x0)
    F = Ds @ inv_rest[tid]
    energy[tid] = (1.0 - relax) * energy[tid] + relax * neo_hookean_energy(F, mu, bulk)
