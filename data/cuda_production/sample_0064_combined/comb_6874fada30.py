import warp as wp


@wp.func
def blend(a: float, b: float, t: float) -> float:
    return a + t * (b - a)

@wp.kernel
def comb_6874fada30(y: wp.array(dtype=float), taps: wp.array(dtype=float), t: float, max_value: wp.array(dtype=float), blended_out: wp.array(dtype=float)):
    tid = wp.tid()
    acc = float(0.0)
    for k in range(3):
        j = wp.clamp(tid + k - 1, 0, y.shape[0] - 1)
        acc = acc + taps[k] * y[j]
    h = float(0.0)
    for k in range(6):
        j = wp.clamp(tid + k - 5, 0, y.shape[0] - 1)
        h = h + 0.75 * (y[j] - h)
    blended = blend(acc, h, t)
    wp.atomic_max(max_value, 0, blended)
    blended_out[tid] = blended
