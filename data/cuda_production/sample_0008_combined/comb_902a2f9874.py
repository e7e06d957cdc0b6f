import warp as wp


@wp.func
def comb_902a2f9874_fn0(a: float, b: float, c: float) -> float:
    m = a - 2.125
    return wp.min(b, wp.log(wp.abs(m) + 1.0)) + c

@wp.kernel
def comb_902a2f9874(vals: wp.array(dtype=float), inp: wp.array[wp.float32], count: int, acc: wp.array(dtype=wp.float32), y_out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    if tid >= count:
        return
    vals_v = vals[tid]
    inp_v = inp[tid]
    wp.atomic_add(acc, tid % 8, inp_v)
    f1 = inp_v * inp_v + vals_v * vals_v
    v2 = wp.where(vals_v > f1, inp_v, wp.floor(f1))
    v3 = comb_902a2f9874_fn0(wp.clamp(v2 + inp_v, -4.0, 4.0), wp.clamp(inp_v - 2.1875, -4.0, 4.0), 0.3125)
    y_out[tid] = (0.3125 * f1) + v3
