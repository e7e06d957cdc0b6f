import warp as wp


@wp.func
def comb_08049a701e_fn0(a: float, b: float, c: float) -> float:
    m = b / 8.0
    return (wp.sin(min(b, m)) + a) + c

@wp.kernel
def comb_08049a701e(vals: wp.array(dtype=float), y: wp.array[wp.float32], inp: wp.array(dtype=wp.float32), acc: wp.array(dtype=float), res: wp.array[float]):
    tid = wp.tid()
    vals_v = vals[tid]
    vals_left = vals[max(tid - 1, 0)]
    vals_right = vals[wp.min(tid + 1, 499)]
    y_v = y[tid]
    inp_v = inp[tid]
    avg1 = (vals_left + vals_right) / 2.0
    acc3 = float(0.0)
    c2 = int(0)
    while c2 < 3:
        acc3 = wp.tanh(0.5 * acc3 + wp.tanh(wp.tanh(vals_v)))
        c2 = c2 + 1
    v4 = comb_08049a701e_fn0(avg1, min(inp_v, vals_v), min(y_v, inp_v))
    wp.atomic_add(acc, tid % 16, y_v)
    res[tid] = (v4 + y_v) + acc3
