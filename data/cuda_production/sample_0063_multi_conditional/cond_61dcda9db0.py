import warp as wp


@wp.kernel
def cond_61dcda9db0(u: wp.array2d(dtype=float), vel: wp.array2d(dtype=float), slope: wp.array2d(dtype=float), advected: wp.array2d(dtype=float)):
    i, j = wp.tid()
    u_v = u[i, j]
    u_left = u[i, wp.max(j - 1, 0)]
    u_right = u[i, wp.min(j + 1, u.shape[1] - 1)]
    vel_v = vel[i, j]
    u_up = u[wp.max(i - 1, 0), j]
    u_down = u[wp.min(i + 1, u.shape[0] - 1), j]
    dl = u_v - u_left
    dr = u_right - u_v
    slope_val = float(0.0)
    if dl * dr > 0.0:
        if wp.abs(dl) < wp.abs(dr):
            slope_val = dl
        else:
            slope_val = dr
    advected_val = float(0.0)
    if vel_v > 0.0:
        advected_val = u_v - 0.1 * vel_v * (u_v - u_up)
    else:
        advected_val = u_v - 0.1 * vel_v * (u_down - u_v)
    slope[i, j] = slope_val
    advected[i, j] = advected_val
