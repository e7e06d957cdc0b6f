import warp as wp


@wp.kernel
def ctrl_627f75deed(src: wp.array[float], a: wp.array[float], order: int, series: wp.array[float], first_index: wp.array[int], taps: wp.array[float], filtered: wp.array[float]):
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
        if src[wp.min(tid + k, src.shape[0] - 1)] < -0.5:
            first = k
            break
    first_index[tid] = first
    acc = float(0.0)
    for k in range(-4, 5):
        acc += taps[k + 4] * src[wp.clamp(tid + k, 0, src.shape[0] - 1)]
    filtered[tid] = acc
