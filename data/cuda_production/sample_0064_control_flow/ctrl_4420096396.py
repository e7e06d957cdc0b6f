import warp as wp


@wp.kernel(enable_backward=False)
def ctrl_4420096396(w: wp.array[float], enabled: wp.array[int], eccentricity: float, anomaly: wp.array[float], pos_sum_out: wp.array[float]):
    tid = wp.tid()
    if enabled[tid] == 0:
        return
    w_v = w[tid]
    ecc_anom = w_v
    for it in range(8):
        ecc_anom = w_v + eccentricity * wp.sin(ecc_anom)
    anomaly[tid] = ecc_anom
    pos_sum = float(0.0)
    for k in range(3):
        v = w[wp.clamp(tid + k - 1, 0, w.shape[0] - 1)]
        if v < 0.0:
            continue
        pos_sum += v
    pos_sum_out[tid] = pos_sum
