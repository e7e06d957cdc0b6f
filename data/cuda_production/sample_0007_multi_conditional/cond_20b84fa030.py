import warp as wp


@wp.kernel
def cond_20b84fa030(inp: wp.array(dtype=wp.float32), a: wp.array(dtype=wp.float32), lower: wp.float32, upper: wp.float32, masked: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    inp_v = inp[tid]
    mag1 = wp.abs(a[tid])
    masked_val = float(0.0)
    if mag1 < lower or mag1 > upper:
        masked_val = inp_v
    mag2 = wp.abs(masked_val)
    loss_val = float(0.0)
    if mag2 <= 1.5:
        loss_val = 0.5 * masked_val * masked_val
    else:
        loss_val = 1.5 * (mag2 - 0.75)
    masked[tid] = masked_val
    loss[tid] = loss_val
