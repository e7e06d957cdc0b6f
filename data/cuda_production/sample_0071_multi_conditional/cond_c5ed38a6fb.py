import warp as wp


@wp.kernel
def cond_c5ed38a6fb(velocity: wp.array[wp.float32], pos_y: wp.array[wp.float32], ground: wp.float32, friction_force: wp.array[wp.float32], force: wp.array[wp.float32], pos_out: wp.array[wp.float32], vel_out: wp.array[wp.float32]):
    tid = wp.tid()
    velocity_v = velocity[tid]
    pos_y_v = pos_y[tid]
    speed = wp.abs(velocity_v)
    friction = float(0.0)
    if speed > 0.5:
        friction = -0.5 * velocity_v / speed
    else:
        friction = -0.5 * velocity_v
    depth = ground - pos_y_v
    force_val = float(0.0)
    if depth > 0.0:
        force_val = 10.0 * depth - 5.0 * velocity_v
    x_new = pos_y_v + 0.25 * velocity_v
    v_new = velocity_v
    if x_new < -1.5:
        x_new = -3.0 - x_new
        v_new = -velocity_v
    elif x_new > 1.5:
        x_new = 3.0 - x_new
        v_new = -velocity_v
    friction_force[tid] = friction
    force[tid] = force_val
    pos_out[tid] = x_new
    vel_out[tid] = v_new
