import warp as wp


@wp.func
def gaussian_density(x: wp.vec2, mean: wp.vec2, precision: wp.mat22) -> float:
    d = x - mean
    return wp.exp(-0.5 * wp.dot(d, precision @ d))

@wp.kernel
def mat_5020e5e9e2(x_x: wp.array[float], x_y: wp.array[float], mean: wp.vec2, inv_cov: wp.mat22, mix_weight: float, density: wp.array[float]):
    tid = wp.tid()
    x_v = wp.vec2(x_x[tid], x_y[tid])
    density[tid] = mix_weight * gaussian_density(x_v, mean, inv_cov)
