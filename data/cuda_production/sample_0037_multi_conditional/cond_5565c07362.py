import warp as wp


ALPHA = wp.constant(1.0)

@wp.kernel
def cond_5565c07362(data: wp.array(dtype=wp.float32), clipped: wp.array(dtype=wp.float32), activated: wp.array(dtype=wp.float32), label: wp.array(dtype=wp.int32), mag_out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    data_v = data[tid]
    clipped_val = data_v
    if data_v > 1.25:
        clipped_val = 1.25 + 0.25 * (data_v - 1.25)
    elif data_v < -1.25:
        clipped_val = 0.25 * (data_v + 1.25) - 1.25
    act = float(0.0)
    if data_v > 0.0:
        act = data_v
    else:
        act = ALPHA * (wp.exp(data_v) - 1.0)
    mag = wp.abs(data_v)
    mag_out[tid] = mag
    level = int(0)
    if mag >= 0.75:
        level = 2
    elif mag >= 0.5:
        level = 1
    clipped[tid] = clipped_val
    activated[tid] = act
    label[tid] = level
