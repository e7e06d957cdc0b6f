import warp as wp


@wp.func
def comb_6874fada30_fn0(p: float, q: float, r: float) -> float:
    t = q * p
    return (wp.abs(t) * wp.abs(r)) * p

@wp.kernel
def comb_6874fada30(data: wp.array(dtype=float), w: wp.array[float], dst: wp.array[float]):
    tid = wp.tid()
    data_v = data[tid]
    w_v = w[tid]
    acc1 = float(0.0)
    for k in range(11, -1, -1):
        acc1 = wp.tanh(0.75 * acc1 + data_v)
    acc3 = float(0.0)
    c2 = int(0)
    while c2 < 3:
        acc3 = wp.tanh(0.75 * acc3 + data_v)
        c2 = c2 + 1
    v4 = comb_6874fada30_fn0(wp.abs(acc1), wp.atan2(w_v, 1.4375), wp.abs(data_v))
    dst[tid] = wp.exp(wp.clamp(v4, -2.0, 2.0)) - acc3
