import warp as wp


SCALE_31924BD3F2 = wp.constant(-0.25)

@wp.func
def comb_31924bd3f2_fn0(p: float, q: float, r: float) -> float:
    d = p / 2.0
    g = d + 2.375
    return (g + q) * r

@wp.kernel
def comb_31924bd3f2(vals: wp.array[float], count: int, dst: wp.array[float]):
    tid = wp.tid()
    if tid >= count:
        return
    vals_v = vals[tid]
    v1 = comb_31924bd3f2_fn0(wp.cos(vals_v), vals_v - SCALE_31924BD3F2, wp.pow(wp.abs(vals_v) + 1.0, 0.5))
    r2 = v1 + ((-1.5) - vals_v) if -1.0625 >= vals_v else vals_v
    dst[tid] = -(SCALE_31924BD3F2 + r2)
