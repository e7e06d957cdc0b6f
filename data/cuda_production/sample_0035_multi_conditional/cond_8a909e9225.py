import warp as wp


@wp.kernel
def cond_8a909e9225(inp: wp.array(dtype=float), a: wp.array(dtype=float), n: int, y_out: wp.array[float], res: wp.array[float]):
    tid = wp.tid()
    if tid >= n:
        return
    inp_v = inp[tid]
    a_v = a[tid]
    r1 = float(0.0)
    r2 = wp.min(inp_v, a_v)
    if not (-inp_v > a_v):
        r1 = r2
    else:
        r1 = a_v
        r2 = 1.5625
    y_out[tid] = r1
    res[tid] = r2
