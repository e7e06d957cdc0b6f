import warp as wp


@wp.func
def cauchy(r: float, c: float) -> float:
    t = r / c
    return 0.5 * c * c * wp.log(1.0 + t * t)

@wp.kernel
def comb_08049a701e(y: wp.array[float], n: int, label: wp.array[float], c: float, res: wp.array[float]):
    tid = wp.tid()
    if tid >= n:
        return
    y_v = y[tid]
    label_v = label[tid]
    ecc_anom = y_v
    for it in range(8):
        ecc_anom = y_v + 0.5 * wp.sin(ecc_anom)
    r = ecc_anom - label_v
    loss = cauchy(r, c)
    res[tid] = loss
