import warp as wp


@wp.func
def pseudo_huber(r: float, delta: float) -> float:
    t = r / delta
    return delta * delta * (wp.sqrt(1.0 + t * t) - 1.0)

@wp.kernel
def comb_31924bd3f2(vals: wp.array[float], n: int, reference: wp.array[float], delta: float, group: wp.array[int], per_group: wp.array[float], result: wp.array[float]):
    tid = wp.tid()
    if tid >= n:
        return
    vals_v = vals[tid]
    reference_v = reference[tid]
    group_v = group[tid]
    v = wp.abs(vals_v)
    lo = float(0.0)
    hi = float(2.0)
    it = int(0)
    while it < 6:
        mid = 0.5 * (lo + hi)
        if mid * mid > v:
            hi = mid
        else:
            lo = mid
        it += 1
    s = 0.5 * (lo + hi)
    r = s - reference_v
    loss = pseudo_huber(r, delta)
    wp.atomic_add(per_group, group_v, loss)
    result[tid] = loss
