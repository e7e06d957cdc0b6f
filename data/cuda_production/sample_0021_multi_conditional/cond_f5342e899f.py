import warp as wp


ALPHA = wp.constant(0.2)

@wp.kernel
def cond_f5342e899f(b: wp.array(dtype=float), level: wp.array(dtype=int), weight: wp.array(dtype=float), activated: wp.array(dtype=float)):
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
    ramp = float(0.0)
    if mag >= 1.5:
        ramp = 1.0
    elif mag > 0.5:
        ramp = mag - 0.5
    act = float(0.0)
    if b_v > 0.0:
        act = b_v
    else:
        act = ALPHA * b_v
    level[tid] = level_val
    weight[tid] = ramp * b_v
    activated[tid] = act
