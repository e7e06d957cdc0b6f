import warp as wp


@wp.kernel
def cond_805451b3c3(rho: wp.array[float], vel: wp.array[float], advected: wp.array[float], mix_rate: float):
    tid = wp.tid()
    rho_v = rho[tid]
    vel_v = vel[tid]
    rho_left = rho[wp.max(tid - 1, 0)]
    rho_right = rho[wp.min(tid + 1, rho.shape[0] - 1)]
    du = float(0.0)
    if vel_v > 0.0:
        du = rho_v - rho_left
    else:
        du = rho_right - rho_v
    advected[tid] = wp.lerp(advected[tid], rho_v - 0.25 * vel_v * du, mix_rate)
