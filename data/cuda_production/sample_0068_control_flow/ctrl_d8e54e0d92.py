import warp as wp


NUM_ITERS = wp.constant(10)

@wp.kernel
def ctrl_d8e54e0d92(y: wp.array(dtype=float), eccentricity: float, anomaly: wp.array(dtype=float)):
    tid = wp.tid()
    y_v = y[tid]
    ecc_anom = y_v
    for it in range(NUM_ITERS):
        ecc_anom = y_v + eccentricity * wp.sin(ecc_anom)
    anomaly[tid] = ecc_anom
