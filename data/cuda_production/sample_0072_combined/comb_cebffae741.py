import warp as wp


ACTIVE = wp.constant(2)

@wp.func
def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + wp.exp(-x))

@wp.kernel
def comb_cebffae741(vals: wp.array(dtype=float), point_flags: wp.array(dtype=int), g: wp.array(dtype=float), gated_out: wp.array(dtype=float)):
    tid = wp.tid()
    if (point_flags[tid] & ACTIVE) == 0:
        return
    vals_v = vals[tid]
    g_v = g[tid]
    v = wp.abs(vals_v)
    lo = float(0.0)
    hi = float(2.0)
    while hi - lo > 0.03125:
        mid = 0.5 * (lo + hi)
        if mid * mid * mid > v:
            hi = mid
        else:
            lo = mid
    s = 0.5 * (lo + hi)
    gate = sigmoid(g_v)
    gated = gate * s
    gated_out[tid] += gated
