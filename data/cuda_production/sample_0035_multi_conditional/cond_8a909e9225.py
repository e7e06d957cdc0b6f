import warp as wp


@wp.kernel
def cond_8a909e9225(inp: wp.array(dtype=float), a: wp.array(dtype=float), q: wp.array[float], n: int, y_out: wp.array[float], res: wp.array[float]):
    tid = wp.tid()
    if tid >= n:
        return
    inp_v = inp[tid]
    a_v = a[tid]
    q_v = q[tid]
    r1 = float(0.0)
    r2 = wp.min(inp_v, a_v)
    diff3 = q_v - inp_v
    if diff3 >= 2.0:
        r1 = a_v
        r2 = min(inp_v, wp.abs(diff3))
    else:
        r1 = -r2
    y_out[tid] = r1
    res[tid] = r2
