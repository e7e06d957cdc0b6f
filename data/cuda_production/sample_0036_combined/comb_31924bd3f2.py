import warp as wp


@wp.func
def cauchy(r: float, c: float) -> float:
    t = r / c
    return 0.5 * c * c * wp.log(1.0 + t * t)

@wp.kernel
def comb_31924bd3f2(vals: wp.array[float], n: int, n_iter: int, reference: wp.array[float], acc: wp.array[float], losses: wp.array[float]):
    tid = wp.tid()
    if tid >= n:
        return
    vals_v = vals[tid]
    reference_v = reference[tid]
    v = wp.abs(vals_v)
    lo = float(0.0)
    hi = float(2.0)
    it = int(0)
    while it < n_iter:
        mid = 0.5 * (lo + hi)
        if mid * mid > v:
            hi = mid
        else:
            lo = mid
        it += 1
    s = 0.5 * (lo + hi)
    r = s - reference_v
    loss = cauchy(r, 1.0)
    wp.atomic_add(acc, 0, loss)
    losses[tid] = loss
