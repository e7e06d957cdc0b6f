import warp as wp


@wp.kernel
def ctrl_62244df0a0(a: wp.array(dtype=float), first_index: wp.array(dtype=int), coef: wp.array(dtype=float), poly_out: wp.array(dtype=float)):
    tid = wp.tid()
    a_v = a[tid]
    first = int(6)
    for k in range(6):
        if a[wp.min(tid + k, a.shape[0] - 1)] > 1.0:
            first = k
            break
    first_index[tid] = first
    t = a_v - 0.5
    y = float(0.0)
    for k in range(4):
        y = y * t + coef[k]
    poly_out[tid] = y
