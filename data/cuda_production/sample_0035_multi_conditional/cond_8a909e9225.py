import warp as wp


THRESHOLD = wp.constant(0.5)

@wp.kernel(enable_backward=False)
def cond_8a909e9225(vals: wp.array(dtype=float), a: wp.array(dtype=float), activated: wp.array(dtype=float), loss: wp.array(dtype=float), shrunk: wp.array(dtype=float), alpha: float):
    tid = wp.tid()
    a_v = a[tid]
    vals_v = vals[tid]
    act = float(0.0)
    if a_v > 0.0:
        act = a_v
    else:
        act = 0.05 * a_v
    resid = a_v - vals_v
    mag = wp.abs(resid)
    loss_val = float(0.0)
    if mag <= 1.0:
        loss_val = 0.5 * resid * resid
    else:
        loss_val = mag - 0.5
    shrunk_val = float(0.0)
    if a_v > THRESHOLD:
        shrunk_val = a_v - THRESHOLD
    elif a_v < -THRESHOLD:
        shrunk_val = a_v + THRESHOLD
    activated[tid] = act
    loss[tid] = loss_val
    shrunk[tid] = (1.0 - alpha) * shrunk[tid] + alpha * shrunk_val
