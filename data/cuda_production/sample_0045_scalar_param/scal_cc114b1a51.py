import warp as wp


@wp.kernel
def scal_cc114b1a51(a: wp.array[wp.float32], bias: wp.float32, n_iter: int, output: wp.array[float]):
    tid = wp.tid()
    acc1 = float(0.0)
    for s in range(n_iter):
        acc1 = acc1 + (bias + bias)
    output[tid] = ((acc1 * a[tid]) / (abs(a[tid]) + 2.0)) + wp.max(bias * bias, max(1.6875, acc1))
