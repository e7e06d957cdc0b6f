import warp as wp


@wp.kernel
def ctrl_627f75deed(a: wp.array(dtype=float), order: int, series: wp.array(dtype=float), first_index: wp.array(dtype=int), taps: wp.array(dtype=float), filtered: wp.array(dtype=float)):
    tid = wp.tid()
    a_v = a[tid]
    term = float(1.0)
    total = float(1.0)
    for k in range(order):
        term *= a_v / float(k + 1)
        total = total + term
    series[tid] = total
    first = int(4)
    for k in range(4):
        if a[wp.min(tid + k, a.shape[0] - 1)] < -0.5:
            first = k
            break
    first_index[tid] = first
    acc = float(0.0)
    for k in range(3):
        j = wp.clamp(tid + k - 1, 0, a.shape[0] - 1)
        acc += taps[k] * a[j]
    filtered[tid] = acc
