import warp as wp


@wp.kernel
def scal_89e978595e(x: wp.array[float], residual_in: wp.array[float], mean: float, std: float, threshold: float, n_substeps: int, h: float, rate: float, steady: wp.array[float]):
    tid = wp.tid()
    x_v = x[tid]
    residual_in_v = residual_in[tid]
    h2 = x_v + residual_in_v
    z = (h2 - mean) / std
    excess = wp.max(z - threshold, 0.0)
    state = float(0.0)
    for s in range(n_substeps):
        state = state + h * (excess - rate * state)
    steady[tid] = state
