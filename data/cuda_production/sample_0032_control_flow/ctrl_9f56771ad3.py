import warp as wp


@wp.kernel
def ctrl_9f56771ad3(data: wp.array[wp.float32], anomaly: wp.array[wp.float32], root_out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    data_v = data[tid]
    ecc_anom1 = data_v
    for it in range(3):
        ecc_anom1 = ecc_anom1 - (ecc_anom1 - 0.125 * wp.sin(ecc_anom1) - data_v) / (1.0 - 0.125 * wp.cos(ecc_anom1))
    anomaly[tid] = ecc_anom1
    v2 = wp.abs(data_v)
    lo3 = float(0.0)
    hi4 = float(2.0)
    it5 = int(0)
    while it5 < 8:
        mid = 0.5 * (lo3 + hi4)
        if mid * mid > v2:
            hi4 = mid
        else:
            lo3 = mid
        it5 += 1
    root_out[tid] = 0.5 * (lo3 + hi4)
