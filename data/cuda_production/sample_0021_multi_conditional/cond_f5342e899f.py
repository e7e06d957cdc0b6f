import warp as wp


@wp.kernel
def cond_f5342e899f(b: wp.array(dtype=float), rho: wp.array(dtype=wp.float32), vel: wp.array(dtype=wp.float32), level: wp.array[wp.int32], advected: wp.array(dtype=float), slope: wp.array(dtype=float)):
    tid = wp.tid()
    b_v = b[tid]
    rho_v = rho[tid]
    vel_v = vel[tid]
    rho_left = rho[wp.max(tid - 1, 0)]
    rho_right = rho[min(tid + 1, 1023)]
    mag1 = wp.abs(b_v)
    level2 = int(0)
    if mag1 >= 1.25:
        level2 = 3
    elif mag1 >= 1.0:
        level2 = 2
    elif mag1 >= 0.75:
        level2 = 1
    du3 = float(0.0)
    if vel_v > 0.0:
        du3 = rho_v - rho_left
    else:
        du3 = rho_right - rho_v
    dl4 = rho_v - rho_left
    dr5 = rho_right - rho_v
    slope6 = float(0.0)
    if dl4 * dr5 > 0.0:
        if wp.abs(dl4) < wp.abs(dr5):
            slope6 = dl4
        else:
            slope6 = dr5
    level[tid] = level2
    advected[tid] = rho_v - 0.25 * vel_v * du3
    slope[tid] = slope6
