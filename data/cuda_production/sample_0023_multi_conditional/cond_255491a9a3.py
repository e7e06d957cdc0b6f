import warp as wp


@wp.kernel
def cond_255491a9a3(height: wp.array(dtype=wp.float32), vel: wp.array(dtype=wp.float32), rho: wp.array(dtype=wp.float32), force: wp.array(dtype=wp.float32), advected: wp.array(dtype=wp.float32), blend: wp.float32):
    tid = wp.tid()
    height_v = height[tid]
    vel_v = vel[tid]
    rho_v = rho[tid]
    rho_left = rho[(tid - 1 + rho.shape[0]) % rho.shape[0]]
    rho_right = rho[(tid + 1) % rho.shape[0]]
    depth = -height_v
    force_val = float(0.0)
    if depth > 0.0:
        force_val = 100.0 * depth - 2.0 * vel_v
    advected_val = float(0.0)
    if vel_v > 0.0:
        advected_val = rho_v - 0.05 * vel_v * (rho_v - rho_left)
    else:
        advected_val = rho_v - 0.05 * vel_v * (rho_right - rho_v)
    force[tid] = wp.lerp(force[tid], force_val, blend)
    advected[tid] = advected_val
