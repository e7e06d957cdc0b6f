import warp as wp


@wp.kernel(enable_backward=False)
def mat_5ea53bacef(disp_grad: wp.array(dtype=wp.mat33), shear_mod: float, bulk: float, psi: wp.array(dtype=float)):
    tid = wp.tid()
    disp_grad_v = disp_grad[tid]
    F = wp.identity(n=3, dtype=float) + disp_grad_v
    J = wp.determinant(F)
    I1 = wp.ddot(F, F)
    log_j = wp.log(J)
    psi[tid] = 0.5 * shear_mod * (I1 - 3.0) - shear_mod * log_j + 0.5 * bulk * log_j * log_j
