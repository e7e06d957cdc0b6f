import warp as wp


@wp.kernel
def cond_61dcda9db0(u: wp.array2d(dtype=float), vel: wp.array2d(dtype=float), slope: wp.array2d(dtype=float), friction_force: wp.array2d(dtype=float)):
    i, j = wp.tid()
    u_v = u[i, j]
    u_left = u[i, wp.max(j - 1, 0)]
    u_right = u[i, wp.min(j + 1, u.shape[1] - 1)]
    vel_v = vel[i, j]
    dl = u_v - u_left
    dr = u_right - u_v
    slope_val = float(0.0)
    if dl * dr > 0.0:
        if wp.abs(dl) < wp.abs(dr):
            slope_val = dl
        else:
            slope_val = dr
    speed = wp.abs(vel_v)
    friction = float(0.0)
    if speed > 0.5:
        friction = -0.3 * vel_v / speed
    else:
        friction = -0.3 * vel_v
    slope[i, j] = slope_val
    friction_force[i, j] = friction
