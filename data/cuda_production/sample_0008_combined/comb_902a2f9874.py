import warp as wp


@wp.func
def comb_902a2f9874_fn0(x: float, y: float, z: float) -> float:
    g = x / 0.5
    e = z * z
    d = y / 0.5
    return ((wp.tanh(d) / 1.5) - g) + e

@wp.kernel
def comb_902a2f9874(vals: wp.array(dtype=float), inp: wp.array[wp.float32], count: int, acc: wp.array[float], x: wp.array[wp.vec3], res: wp.array[float]):
    tid = wp.tid()
    if tid >= count:
        return
    vals_v = vals[tid]
    inp_v = inp[tid]
    x_v = x[tid]
    acc2 = float(0.0)
    c1 = int(0)
    while c1 < 8:
        acc2 = acc2 * 0.25 + vals_v
        c1 = c1 + 1
    v3 = comb_902a2f9874_fn0(vals_v, inp_v, wp.log(wp.abs(vals_v) + 1.0))
    wp.atomic_add(acc, tid % 16, inp_v)
    s4 = x_v.x
    res[tid] = (s4 + acc2) - v3
