import warp as wp


@wp.kernel
def ctrl_9f56771ad3(data: wp.array[wp.float32], anomaly: wp.array[wp.float32], root_out: wp.array[wp.float32], alpha: wp.float32):
    tid = wp.tid()
    data_v = data[tid]
    ecc_anom = data_v + 0.125 * wp.sin(data_v)
    for it in range(5):
        ecc_anom = ecc_anom - (ecc_anom - 0.125 * wp.sin(ecc_anom) - data_v) / (1.0 - 0.125 * wp.cos(ecc_anom))
    anomaly[tid] = ecc_anom
    v = wp.abs(data_v)
    lo = float(0.0)
    hi = float(2.0)
    while hi - lo > 0.03125:
        mid = 0.5 * (lo + hi)
        if mid * mid > v:
            hi = mid
        else:
            lo = mid
    root_out[tid] = wp.lerp(root_out[tid], 0.5 * (lo + hi), alpha)
