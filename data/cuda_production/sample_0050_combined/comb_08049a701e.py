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
    ecc_anom1 = y_v
    for it in range(8):
        ecc_anom1 = y_v + 0.5 * wp.sin(ecc_anom1)
    r2 = ecc_anom1 - label_v
    loss3 = cauchy_08049a701e(r2, c)
    res[tid] = loss3
