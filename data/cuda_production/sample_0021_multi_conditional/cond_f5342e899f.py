import warp as wp


DEADBAND = wp.constant(1.5)

@wp.kernel
def cond_f5342e899f(b: wp.array(dtype=float), level: wp.array(dtype=int), activated: wp.array(dtype=float), shrunk: wp.array(dtype=float)):
    tid = wp.tid()
    b_v = b[tid]
    mag = wp.abs(b_v)
    level_val = int(0)
    if mag >= 1.25:
        level_val = 3
    elif mag >= 1.0:
        level_val = 2
    elif mag >= 0.75:
        level_val = 1
    act = float(0.0)
    if b_v > 0.0:
        act = b_v
    else:
        act = wp.exp(b_v) - 1.0
    shrunk_val = float(0.0)
    if b_v > DEADBAND:
        shrunk_val = b_v - DEADBAND
    elif b_v < -DEADBAND:
        shrunk_val = b_v + DEADBAND
    level[tid] = level_val
    activated[tid] = act
    shrunk[tid] = shrunk_val
