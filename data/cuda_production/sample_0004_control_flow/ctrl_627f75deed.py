import warp as wp


@wp.kernel
def ctrl_627f75deed(src: wp.array[float], a: wp.array(dtype=float), order: wp.int32, series: wp.array(dtype=wp.float32), first_index: wp.array(dtype=int), taps: wp.array[float], filtered: wp.array(dtype=float)):
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
        if src[wp.min(tid + k, 63)] < -0.5:
            first = k
            break
    first_index[tid] = first
    acc = float(0.0)
    for k in range(-4, 5):
        acc += taps[k + 4] * src[wp.clamp(tid + k, 0, 63)]
    filtered[tid] = acc
