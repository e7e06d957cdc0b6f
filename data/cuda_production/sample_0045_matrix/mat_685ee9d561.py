import warp as wp


@wp.func
def stvk_energy(grad_u: wp.mat33, mu: float, lam: float) -> float:
    F = wp.identity(n=3, dtype=float) + grad_u
    C = wp.transpose(F) @ F
    E = 0.5 * (C - wp.identity(n=3, dtype=float))
    tr_e = wp.trace(E)
    return mu * wp.ddot(E, E) + 0.5 * lam * tr_e * tr_e

@wp.kernel
def mat_685ee9d561(ids: wp.array(dtype=int), H: wp.array(dtype=wp.mat33), mu: float, lam: float, energy: wp.array(dtype=float)):
    tid = wp.tid()
    i = ids[tid]
    energy[i] = stvk_energy(H[i], mu, lam)
