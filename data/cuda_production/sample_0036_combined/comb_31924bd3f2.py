import warp as wp


BIAS_31924BD3F2 = wp.constant(-0.375)

@wp.func
def comb_31924bd3f2_fn0(x: float, y: float) -> float:
    t = -x
    m = x + 0.25
    return (wp.cos(m / 2.0) * y) + t

@wp.kernel
def comb_31924bd3f2(vals: wp.array[float], indices: wp.array(dtype=wp.int32), steps: int, out: wp.array[wp.float32]):
    tid = wp.tid()
    vals_v = vals[tid]
    vals_left = vals[max(tid - 1, 0)]
    vals_right = vals[wp.min(tid + 1, 999)]
    indices_v = indices[tid]
    vals_g = vals[indices_v]
    grad1 = 0.5 * (vals_right - vals_left)
    v2 = comb_31924bd3f2_fn0(wp.where(vals_g > 0.0, vals_g, 0.2 * vals_g), vals_v)
    acc4 = float(0.0)
    c3 = int(0)
    while c3 < 6:
        acc4 = BIAS_31924BD3F2 - grad1 + 0.5 * wp.sin(acc4)
        c3 = c3 + 1
    acc5 = float(0.0)
    for k in range(steps):
        acc5 = min(1.1875, acc4) / 1.5 + 0.25 * wp.sin(acc5)
    out[tid] = ((vals_g - vals_v) - v2) + acc5
