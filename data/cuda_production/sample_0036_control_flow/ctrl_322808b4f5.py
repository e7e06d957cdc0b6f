import warp as wp


@wp.kernel
def ctrl_322808b4f5(inp: wp.array(dtype=float), first_index: wp.array(dtype=int), neg_mean: wp.array(dtype=float), mix_rate: float):
    tid = wp.tid()
    first = int(6)
    for k in range(6):
        if inp[wp.min(tid + k, inp.shape[0] - 1)] > 1.0:
            first = k
            break
    first_index[tid] = first
    neg_sum = float(0.0)
    kept = int(0)
    for k in range(3):
        v = inp[wp.clamp(tid + k - 1, 0, inp.shape[0] - 1)]
        if v > 0.0:
            continue
        neg_sum = neg_sum + v
        kept += 1
    neg_mean[tid] = (1.0 - mix_rate) * neg_mean[tid] + mix_rate * (neg_sum / float(wp.max(kept, 1)))
