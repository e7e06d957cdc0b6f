import warp as wp


ALPHA_F5342E899F = wp.constant(0.2)

@wp.kernel
def cond_f5342e899f(b: wp.array(dtype=float), level: wp.array[wp.int32], weight: wp.array(dtype=float), activated: wp.array[float]):
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
        act = ALPHA_F5342E899F * b_v
    level[tid] = level_val
    weight[tid] = ramp * b_v
    activated[tid] = act
