import warp as wp


@wp.kernel
def cond_255491a9a3(height: wp.array(dtype=wp.float32), vel: wp.array(dtype=wp.float32), rho: wp.array(dtype=wp.float32), force: wp.array(dtype=wp.float32), advected: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    height_v = height[tid]
    vel_v = vel[tid]
    rho_v = rho[tid]
    rho_left = rho[wp.max(tid - 1, 0)]
    rho_right = rho[wp.min(tid + 1, rho.shape[0] - 1)]
    depth = -height_v
    force_val = float(0.0)
    if depth > 0.0:
        force_val = 100.0 * depth - 2.0 * vel_v
    du = float(0.0)
    if vel_v > 0.0:
        du = rho_v - rho_left
    else:
        du = rho_right - rho_v
    force[tid] = force_val
    advected[tid] = rho_v - 0.1 * vel_v * du
