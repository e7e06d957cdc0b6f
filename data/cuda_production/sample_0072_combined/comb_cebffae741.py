import warp as wp


ACTIVE = wp.constant(2)

@wp.func
def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + wp.exp(-x))

@wp.kernel
def comb_cebffae741(vals: wp.array(dtype=float), point_flags: wp.array(dtype=int), coef: wp.array(dtype=float), slope_out: wp.array(dtype=float), g: wp.array(dtype=float), gated_out: wp.array(dtype=float)):
    tid = wp.tid()
    if (point_flags[tid] & ACTIVE) == 0:
        return
    vals_v = vals[tid]
    g_v = g[tid]
    y = float(0.0)
    dy = float(0.0)
    for k in range(coef.shape[0] - 1, -1, -1):
        dy = dy * vals_v + y
        y = y * vals_v + coef[k]
    slope_out[tid] = dy
    gate = sigmoid(g_v)
    gated = gate * y
    gated_out[tid] = gated
