import warp as wp


@wp.func
def strain_tensor(grad_u: wp.mat33) -> wp.mat33:
    F = wp.identity(n=3, dtype=float) + grad_u
    C = wp.mul(wp.transpose(F), F)
    E = 0.5 * (C - wp.identity(n=3, dtype=float))
    return E

@wp.kernel
def mat_b76113f9a1(indices: wp.array(dtype=int), disp_grad: wp.array(dtype=wp.mat33), e_shear: wp.array(dtype=float), dilation: wp.array(dtype=float)):
    tid = wp.tid()
    i = indices[tid]
    disp_grad_i = disp_grad[i]
    E_t = strain_tensor(disp_grad_i)
    e_shear[i] = E_t[1][2]
    dilation[i] = wp.trace(E_t)
