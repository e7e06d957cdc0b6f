import warp as wp


@wp.kernel
def ctrl_5f373f6b9c(inp: wp.array[float], window_max: wp.array[float], count_out: wp.array[int], coef: wp.array[float], filtered: wp.array[float]):
    tid = wp.tid()
    inp_v = inp[tid]
    best = inp_v
    for k in range(1, 8):
        v = inp[wp.min(tid + k, inp.shape[0] - 1)]
        if v > best:
            best = v
    window_max[tid] += best
    count = int(0)
    for k in range(7):
        if inp[wp.clamp(tid + k - 3, 0, inp.shape[0] - 1)] < 0.25:
            count += 1
    count_out[tid] = count
    acc = float(0.0)
    for k in range(-1, 2):
        acc = acc + coef[k + 1] * inp[wp.clamp(tid + k, 0, inp.shape[0] - 1)]
    filtered[tid] = acc
