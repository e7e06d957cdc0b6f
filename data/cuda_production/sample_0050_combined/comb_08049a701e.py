import warp as wp


@wp.func
def cauchy(r: float, c: float) -> float:
    t = r / c
    return 0.5 * c * c * wp.log(1.0 + t * t)

@wp.kernel(module="unique")
def comb_08049a701e(inp: wp.array(dtype=float), n: int, y_true: wp.array(dtype=float), segment: wp.array(dtype=int), per_group: wp.array(dtype=float), group_count: wp.array(dtype=int), elem_loss: wp.array(dtype=float)):
    tid = wp.tid()
    if tid >= n:
        return
    segment_v = segment[tid]
    v = wp.abs(inp[tid])
    lo = float(0.0)
    hi = float(2.0)
    while hi - lo > 0.0078125:
        mid = 0.5 * (lo + hi)
        if mid * mid * mid > v:
            hi = mid
        else:
            lo = mid
    s = 0.5 * (lo + hi)
    r = s - y_true[tid]
    loss = cauchy(r, 0.5)
    wp.atomic_add(per_group, segment_v, loss)
    wp.atomic_add(group_count, segment_v, 1)
    elem_loss[tid] = loss
