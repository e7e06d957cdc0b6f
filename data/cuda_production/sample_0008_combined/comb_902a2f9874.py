import warp as wp


@wp.func
def comb_902a2f9874_fn0(x: float, y: float) -> float:
    d = y * x
    t = 2.5 * d
    m = t + d
    return x * m

@wp.kernel
def comb_902a2f9874(vals: wp.array(dtype=float), inp: wp.array[wp.float32], count: int, acc: wp.array(dtype=wp.float32), dst: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    if tid >= count:
        return
    vals_v = vals[tid]
    inp_v = inp[tid]
    wp.atomic_add(acc, tid % 16, inp_v)
    v1 = comb_902a2f9874_fn0(vals_v, inp_v)
    v2 = wp.where(wp.floor(inp_v) >= vals_v, -0.8125, inp_v)
    f3 = v2 * v2 + vals_v * vals_v
    dst[tid] = (f3 / 10.0) + v1
