import warp as wp


@wp.kernel
def cond_255491a9a3(rho: wp.array[float], vel: wp.array[float], advected: wp.array[float]):
    tid = wp.tid()
    rho_v = rho[tid]
    vel_v = vel[tid]
    rho_left = rho[(tid - 1 + rho.shape[0]) % rho.shape[0]]
    rho_right = rho[(tid + 1) % rho.shape[0]]
    du = float(0.0)
    if vel_v > 0.0:
        du = rho_v - rho_left
    else:
        du = rho_right - rho_v
    advected[tid] = rho_v - 0.125 * vel_v * du
