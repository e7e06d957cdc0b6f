import warp as wp


DELTA = wp.constant(1.25)

@wp.kernel
def cond_5aa15ea445(src: wp.array2d(dtype=float), loss: wp.array2d(dtype=float), grad: wp.array2d(dtype=float)):
    i, j = wp.tid()
    src_v = src[i, j]
    mag1 = wp.abs(src_v)
    masked = float(0.0)
    if mag1 < 1.25 or mag1 > 1.5:
        masked = src_v
    mag2 = wp.abs(masked)
    loss_val = float(0.0)
    grad_val = float(0.0)
    if mag2 <= DELTA:
        loss_val = 0.5 * masked * masked
        grad_val = masked
    else:
        loss_val = DELTA * (mag2 - 0.5 * DELTA)
        grad_val = DELTA * wp.sign(masked)
    loss[i, j] = loss_val
    grad[i, j] = grad_val
