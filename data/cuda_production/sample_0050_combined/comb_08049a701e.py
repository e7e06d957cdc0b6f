import warp as wp


@wp.func
def cauchy(r: float, c: float) -> float:
    t = r / c
    return 0.5 * c * c * wp.log(1.0 + t * t)

@wp.kernel
def comb_08049a701e(inp: wp.array(dtype=float), n: int, label: wp.array(dtype=float), c: float, res: wp.array(dtype=float)):
    tid = wp.tid()
    if tid >= n:
        return
    inp_v = inp[tid]
    label_v = label[tid]
    v = wp.abs(inp_v)
    lo = float(0.0)
    hi = float(2.0)
    while hi - lo > 0.03125:
        mid = 0.5 * (lo + hi)
        if mid * mid > v:
            hi = mid
        else:
            lo = mid
    s = 0.5 * (lo + hi)
    r = s - label_v
    loss = cauchy(r, c)
    res[tid] = loss
