import warp as wp


@wp.kernel
def cond_c5ed38a6fb(rho: wp.array(dtype=float), vel: wp.array(dtype=float), advected: wp.array(dtype=float), slope: wp.array(dtype=float)):
    tid = wp.tid()
    rho_v = rho[tid]
    vel_v = vel[tid]
    rho_left = rho[max(tid - 1, 0)]
    rho_right = rho[min(tid + 1, rho.shape[0] - 1)]
    advected_val = float(0.0)
    if vel_v > 0.0:
        advected_val = rho_v - 0.125 * vel_v * (rho_v - rho_left)
    else:
        advected_val = rho_v - 0.125 * vel_v * (rho_right - rho_v)
    dl = rho_v - rho_left
    dr = rho_right - rho_v
    slope_val = float(0.0)
    if dl * dr > 0.0:
        if abs(dl) < abs(dr):
            slope_val = dl
        else:
            slope_val = dr
    advected[tid] = advected_val
    slope[tid] = slope_val
