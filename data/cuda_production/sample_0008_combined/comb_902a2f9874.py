import warp as wp


@wp.func
def comb_902a2f9874_fn0(p: float, q: float, r: float) -> float:
    t = r * r
    return (wp.min(t * (-0.6875), t) - p) + q

@wp.kernel
def comb_902a2f9874(vals: wp.array(dtype=float), inp: wp.array[wp.float32], count: int, acc: wp.array(dtype=float), y: wp.array(dtype=wp.vec3), res: wp.array[float]):
    tid = wp.tid()
    if tid >= count:
        return
    vals_v = vals[tid]
    inp_v = inp[tid]
    y_v = y[tid]
    acc2 = float(0.0)
    c1 = int(0)
    while c1 < 8:
        acc2 = acc2 * 0.75 + vals_v
        c1 = c1 + 1
    v3 = comb_902a2f9874_fn0(wp.floor(inp_v), vals_v, 1.375 * vals_v)
    wp.atomic_add(acc, tid % 8, wp.floor(inp_v))
    s4 = wp.dot(y_v * vals_v, v3 * y_v)
    res[tid] = (wp.floor(inp_v) + acc2) + s4
