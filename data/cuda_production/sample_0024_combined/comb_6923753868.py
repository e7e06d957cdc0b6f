import warp as wp


@wp.func
def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + wp.exp(-x))

@wp.kernel
def comb_6923753868(data: wp.array[float], x: wp.array[float], logit: wp.array[float], gated_out: wp.array[float]):
    tid = wp.tid()
    data_v = data[tid]
    s = data_v + 0.375 * (x[tid] - data_v)
    gate = sigmoid(logit[tid])
    gated_out[tid] = gate * s
