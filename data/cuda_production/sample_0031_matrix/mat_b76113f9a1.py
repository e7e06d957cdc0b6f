import warp as wp


@wp.kernel
def mat_b76113f9a1(indices: wp.array(dtype=int), disp_grad: wp.array(dtype=wp.mat33), E_out: wp.array(dtype=wp.mat33)):
    tid = wp.tid()
    i = indices[tid]
    disp_grad_i = disp_grad[i]
    E_out[i] = 0.5 * (disp_grad_i + wp.transpose(disp_grad_i))
