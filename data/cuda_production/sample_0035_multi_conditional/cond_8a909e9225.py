import warp as wp


@wp.kernel(enable_backward=False)
def cond_8a909e9225(a: wp.array(dtype=float), activated: wp.array(dtype=float), loss: wp.array(dtype=float), shrunk: wp.array(dtype=float), alpha: float):
    tid = wp.tid()
    a_v = a[tid]
    act = float(0.0)
    if a_v > 0.0:
        act = a_v
    else:
        act = 0.05 * a_v
    mag = wp.abs(a_v)
    loss_val = float(0.0)
    if mag <= 1.25:
        loss_val = 0.5 * a_v * a_v
    else:
        loss_val = 1.25 * (mag - 0.625)
    shrunk_val = float(0.0)
    if a_v > 1.25:
        shrunk_val = a_v - 1.25
    elif a_v < -1.25:
        shrunk_val = a_v + 1.25
    activated[tid] = act
    loss[tid] = loss_val
    shrunk[tid] = (1.0 - alpha) * shrunk[tid] + alpha * shrunk_val
