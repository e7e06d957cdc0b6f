import warp as wp


@wp.func
def comb_08049a701e_fn0(x: float) -> float:
    g = 2.25 + x
    return (g * x) + g

@wp.kernel
def comb_08049a701e(vals: wp.array(dtype=float), inp: wp.array(dtype=wp.float32), acc: wp.array[float], y_out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    vals_v = vals[tid]
    vals_left = vals[max(tid - 1, 0)]
    vals_right = vals[wp.min(tid + 1, 499)]
    inp_v = inp[tid]
    avg1 = (vals_left + vals_right) / 2.0
    wp.atomic_add(acc, tid % 8, vals_v / 8.0)
    v2 = comb_08049a701e_fn0(inp_v)
    t3 = wp.clamp(inp_v, 0.0, 1.0)
    f4 = t3 * t3 * (3.0 - 2.0 * t3)
    y_out[tid] = ((t3 / (abs(f4) + 2.0)) + avg1) + v2
