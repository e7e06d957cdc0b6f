import warp as wp


@wp.kernel(enable_backward=False, module="unique")
def cond_af513b9eae(inp: wp.array(dtype=float), knee: float, clipped: wp.array(dtype=float)):
    tid = wp.tid()
    inp_v = inp[tid]
    clipped_val = inp_v
    if inp_v > knee:
        clipped_val = knee + 0.25 * (inp_v - knee)
    elif inp_v < -knee:
        clipped_val = 0.25 * (inp_v + knee) - knee
    clipped[tid] = clipped_val
