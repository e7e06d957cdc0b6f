import warp as wp


@wp.kernel
def cond_79cfefaccc(px: wp.array(dtype=float), vel: wp.array(dtype=float), fn: wp.array(dtype=float), px_out: wp.array(dtype=float), vel_out: wp.array(dtype=float), friction_force: wp.array(dtype=float)):
    tid = wp.tid()
    vel_v = vel[tid]
    fn_v = fn[tid]
    x_new = px[tid] + 0.25 * vel_v
    v_new = vel_v
    if x_new < -1.25:
        x_new = -1.25
        v_new = 0.0
    elif x_new > 1.75:
        x_new = 1.75
        v_new = 0.0
    speed = wp.abs(vel_v)
    friction = float(0.0)
    if speed > 0.25:
        friction = -0.5 * fn_v * vel_v / speed
    else:
        friction = -2.0 * fn_v * vel_v
    px_out[tid] = x_new
    vel_out[tid] = v_new
    friction_force[tid] = friction
