import warp as wp


@wp.func
def log_cosh(r: float) -> float:
    return wp.log(wp.cosh(r))

@wp.kernel
def comb_08049a701e(inp: wp.array(dtype=float), n: int, y_true: wp.array(dtype=float), batch_id: wp.array(dtype=int), per_group: wp.array(dtype=float), result: wp.array(dtype=float)):
    tid = wp.tid()
    if tid >= n:
        return
    inp_v = inp[tid]
    y_true_v = y_true[tid]
    batch_id_v = batch_id[tid]
    v = wp.abs(inp_v)
    lo = float(0.0)
    hi = float(2.0)
    it = int(0)
    while it < 6:
        mid = 0.5 * (lo + hi)
        if mid * mid > v:
            hi = mid
        else:
            lo = mid
        it += 1
    s = 0.5 * (lo + hi)
    r = s - y_true_v
    loss = log_cosh(r)
    wp.atomic_add(per_group, batch_id_v, loss)
    result[tid] = loss
