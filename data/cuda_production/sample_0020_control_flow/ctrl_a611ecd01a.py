import warp as wp


@wp.kernel
def ctrl_a611ecd01a(inp: wp.array[float], local_mean: wp.array[float], local_range: wp.array[float], weights: wp.array[float], running_filtered: wp.array[float], pos_sum_out: wp.array[float], momentum: float):
    tid = wp.tid()
    inp_v = inp[tid]
    total = float(0.0)
    lo = inp_v
    hi = inp_v
    for k in range(-2, 3):
        v = inp[wp.clamp(tid + k, 0, inp.shape[0] - 1)]
        total += v
        lo = wp.min(lo, v)
        hi = wp.max(hi, v)
    mean = total / 5.0
    local_mean[tid] = mean
    local_range[tid] = hi - lo
    acc = float(0.0)
    for k in range(5):
        j = wp.clamp(tid + k - 2, 0, inp.shape[0] - 1)
        acc = acc + weights[k] * inp[j]
    running_filtered[tid] = (1.0 - momentum) * running_filtered[tid] + momentum * acc
    pos_sum = float(0.0)
    for k in range(5):
        v = inp[wp.clamp(tid + k - 2, 0, inp.shape[0] - 1)]
        if v < 0.0:
            continue
        pos_sum = pos_sum + v
    pos_sum_out[tid] = pos_sum
