import warp as wp


@wp.kernel
def cond_8a909e9225(a: wp.array(dtype=float), velocity: wp.array(dtype=wp.float32), mu: float, activated: wp.array[wp.float32], friction_force: wp.array(dtype=float), loss: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    a_v = a[tid]
    velocity_v = velocity[tid]
    act1 = float(0.0)
    if a_v > 0.0:
        act1 = a_v
    else:
        act1 = 0.05 * a_v
    speed2 = wp.abs(velocity_v)
    friction3 = float(0.0)
    if speed2 > 0.25:
        friction3 = -mu * velocity_v / speed2
    else:
        friction3 = -mu * velocity_v
    mag4 = wp.abs(a_v)
    loss5 = float(0.0)
    if mag4 <= 1.5:
        loss5 = 0.5 * a_v * a_v
    else:
        loss5 = 1.5 * (mag4 - 0.75)
    activated[tid] = act1
    friction_force[tid] = friction3
    loss[tid] = loss5
