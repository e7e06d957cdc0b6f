import warp as wp


@wp.func
def soft_clip(x: float, limit: float) -> float:
    return limit * wp.tanh(x / limit)

@wp.kernel(module="unique")
def comb_6f3ac2e612(w: wp.array[float], weights: wp.array[float], limit: float, max_value: wp.array[float], y_clipped: wp.array[float]):
    tid = wp.tid()
    acc = float(0.0)
    for k in range(5):
        j = wp.clamp(tid + k - 2, 0, w.shape[0] - 1)
        acc = acc + weights[k] * w[j]
    clipped = soft_clip(acc, limit)
    wp.atomic_max(max_value, 0, clipped)
    y_clipped[tid] = clipped
