import warp as wp


@wp.func
def cauchy_08049a701e(r: float, c: float) -> float:
    t = r / c
    return 0.5 * c * c * wp.log(1.0 + t * t)

@wp.kernel
def comb_08049a701e(y: wp.array[wp.float32], n: int, label: wp.array[wp.float32], c: float, res: wp.array[wp.float32]):
    tid = wp.tid()
    if tid >= n:
        return
    y_v = y[tid]
    label_v = label[tid]
    ecc_anom = y_v
    for it in range(8):
        ecc_anom = y_v + 0.5 * wp.sin(ecc_anom)
    r = ecc_anom - label_v
    loss = cauchy_08049a701e(r, c)
    res[tid] = loss
