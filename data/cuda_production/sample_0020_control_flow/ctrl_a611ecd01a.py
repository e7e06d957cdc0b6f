import warp as wp


@wp.kernel
def ctrl_a611ecd01a(inp: wp.array[float], taps: wp.array[float], filtered: wp.array[float], pos_sum_out: wp.array[float], mean_out: wp.array[float], window_lo: wp.array[float], window_hi: wp.array[float]):
    tid = wp.tid()
    inp_v = inp[tid]
    total = float(0.0)
    lo = inp_v
    hi = inp_v
    acc = float(0.0)
    pos_sum = float(0.0)
    for k in range(-2, 3):
        v = inp[wp.clamp(tid + k, 0, inp.shape[0] - 1)]
        acc += taps[k + 2] * v
        if v > 0.0:
            pos_sum += v
        total += v
        lo = wp.min(lo, v)
        hi = wp.max(hi, v)
    mean = total / 5.0
    filtered[tid] = acc
    pos_sum_out[tid] = pos_sum
    mean_out[tid] = mean
    window_lo[tid] = lo
    window_hi[tid] = hi
