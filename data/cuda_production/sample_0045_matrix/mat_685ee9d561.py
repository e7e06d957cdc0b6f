import warp as wp


@wp.kernel
def mat_685ee9d561(ids: wp.array(dtype=int), grad_u: wp.array(dtype=wp.mat33), mu: float, lam: float, energy: wp.array(dtype=float)):
    tid = wp.tid()
    i = ids[tid]
    grad_u_i = grad_u[i]
    F = wp.identity(n=3, dtype=float) + grad_u_i
    C = wp.transpose(F) @ F
    E = 0.5 * (C - wp.identity(n=3, dtype=float))
    tr_e = wp.trace(E)
    energy[i] = mu * wp.ddot(E, E) + 0.5 * lam * tr_e * tr_e
