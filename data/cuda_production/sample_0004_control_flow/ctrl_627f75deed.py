import warp as wp


@wp.kernel
def ctrl_627f75deed(q: wp.array[wp.float32], src: wp.array[float], a: wp.array(dtype=float), order: wp.int32, series: wp.array(dtype=wp.float32), first_index: wp.array(dtype=int), taps: wp.array(dtype=wp.float32), filtered: wp.array(dtype=float)):
    tid = wp.tid()
    a_v = a[tid]
    term1 = float(1.0)
    total2 = float(1.0)
    for k in range(order):
        term1 *= a_v / float(k + 1)
        total2 = total2 + term1
    series[tid] = total2
    first3 = int(4)
    for k in range(4):
        if src[wp.min(tid + k, 63)] < -0.5:
            first3 = k
            break
    first_index[tid] = first3
    acc4 = float(0.0)
    for k in range(3):
        j = wp.clamp(tid + k - 1, 0, 63)
        acc4 += taps[k] * q[j]
    filtered[tid] = acc4
