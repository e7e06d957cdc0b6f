import warp as wp


@wp.func
def blend(a: float, b: float, t: float) -> float:
    return a + t * (b - a)

@wp.kernel(enable_backward=False)
def comb_93138b7e37(y: wp.array(dtype=float), weights: wp.array(dtype=float), alpha: float, acc: wp.array(dtype=float), blended_out: wp.array(dtype=float)):
    tid = wp.tid()
    h = float(0.0)
    for k in range(6):
        j = wp.clamp(tid + k - 5, 0, y.shape[0] - 1)
        h = 0.75 * h + 0.25 * wp.tanh(0.75 * h + y[j])
    total = float(0.0)
    for k in range(-1, 2):
        total += weights[k + 1] * y[wp.clamp(tid + k, 0, y.shape[0] - 1)]
    blended = blend(h, total, alpha)
    wp.atomic_add(acc, 0, blended)
    blended_out[tid] = blended
