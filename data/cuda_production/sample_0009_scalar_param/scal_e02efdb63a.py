import warp as wp


@wp.kernel
def scal_e02efdb63a(inp: wp.array[wp.float32], eps: wp.float32, mean: wp.float32, std: wp.float32, temperature: wp.float32, prob: wp.array[wp.float32], substeps: wp.int32, dt_sub: wp.float32, rate: wp.float32, steady: wp.array[wp.float32]):
    tid = wp.tid()
    inp_v = inp[tid]
    soft_sign = inp_v / wp.sqrt(inp_v * inp_v + eps)
    z = (soft_sign - mean) / std
    prob[tid] = 1.0 / (1.0 + wp.exp(-z / temperature))
    state = float(0.0)
    for s in range(substeps):
        state = state + dt_sub * (inp_v - rate * state)
    steady[tid] = state
