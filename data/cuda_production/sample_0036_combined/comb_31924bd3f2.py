import warp as wp


@wp.func
def pseudo_huber(r: float, delta: float) -> float:
    t = r / delta
    return delta * delta * (wp.sqrt(1.0 + t * t) - 1.0)

@wp.kernel
def comb_31924bd3f2(vals: wp.array[float], n: int, target: wp.array[float], delta: float, peak: wp.array[float], output: wp.array[float]):
    tid = wp.tid()
    if tid >= n:
        return
    vals_v = vals[tid]
    target_v = target[tid]
    v = wp.abs(vals_v)
    lo = float(0.0)
    hi = float(2.0)
    while hi - lo > 0.03125:
        mid = 0.5 * (lo + hi)
        if mid * mid > v:
            hi = mid
        else:
            lo = mid
    s = 0.5 * (lo + hi)
    r = s - target_v
    loss = pseudo_huber(r, delta)
    wp.atomic_max(peak, 0, loss)
    output[tid] = loss
