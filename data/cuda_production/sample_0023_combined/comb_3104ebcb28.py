import warp as wp


@wp.func
def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + wp.exp(-x))

@wp.kernel(enable_backward=False)
def comb_3104ebcb28(data: wp.array(dtype=float), kernel_w: wp.array(dtype=float), logit: wp.array(dtype=float), gated_out: wp.array(dtype=float)):
    tid = wp.tid()
    acc = float(0.0)
    for k in range(7):
        j = wp.clamp(tid + k - 3, 0, data.shape[0] - 1)
        acc = acc + kernel_w[k] * data[j]
    gate = sigmoid(logit[tid])
    gated_out[tid] = gate * acc
