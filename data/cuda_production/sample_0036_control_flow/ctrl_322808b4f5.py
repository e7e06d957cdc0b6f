import warp as wp


@wp.kernel
def ctrl_322808b4f5(inp: wp.array(dtype=float), first_index: wp.array(dtype=int), root_out: wp.array(dtype=float)):
    tid = wp.tid()
    inp_v = inp[tid]
    first = int(6)
    for k in range(6):
        if inp[wp.min(tid + k, inp.shape[0] - 1)] > 1.0:
            first = k
            break
    first_index[tid] = first
    v = wp.abs(inp_v)
    lo = float(0.0)
    hi = float(2.0)
    it = int(0)
    while it < 8:
        mid = 0.5 * (lo + hi)
        if mid * mid > v:
            hi = mid
        else:
            lo = mid
        it += 1
    root_out[tid] += 0.5 * (lo + hi)
