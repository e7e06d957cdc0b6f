import warp as wp


@wp.kernel(enable_backward=False)
def ctrl_a611ecd01a(inp: wp.array[float], window_lo: wp.array[float], window_hi: wp.array[float], peak_to_peak: wp.array[float], kernel_w: wp.array[float], filtered: wp.array[float], pos_sum_out: wp.array[float]):
    tid = wp.tid()
    inp_v = inp[tid]
    lo = inp_v
    hi = inp_v
    for k in range(-3, 4):
        v = inp[wp.clamp(tid + k, 0, inp.shape[0] - 1)]
        lo = wp.min(lo, v)
        hi = wp.max(hi, v)
    window_lo[tid] = lo
    window_hi[tid] = hi
    peak_to_peak[tid] = hi - lo
    acc = float(0.0)
    for k in range(-3, 4):
        acc = acc + kernel_w[k + 3] * inp[wp.clamp(tid + k, 0, inp.shape[0] - 1)]
    filtered[tid] = acc
    pos_sum = float(0.0)
    for k in range(3):
        v = inp[wp.clamp(tid + k - 1, 0, inp.shape[0] - 1)]
        if v <= 0.0:
            continue
        pos_sum += v
    pos_sum_out[tid] = pos_sum
