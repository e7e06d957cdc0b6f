import warp as wp


@wp.kernel
def scal_65b6d756df(b: wp.array(dtype=float), shift: int, eps: float, soft_out: wp.array(dtype=float), soft_sign_out: wp.array(dtype=float), smoothing: float):
    tid = wp.tid()
    b_next = b[(tid + shift) % b.shape[0]]
    soft_sign = b_next / wp.sqrt(b_next * b_next + eps)
    soft_sign_out[tid] = soft_sign
    soft_out[tid] = (1.0 - smoothing) * soft_out[tid] + smoothing * soft_sign
