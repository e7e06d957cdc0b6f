import warp as wp


WEIGHT_627F75DEED = wp.constant(1.375)

@wp.kernel
def ctrl_627f75deed(q: wp.array[wp.float32], src: wp.array[float], a: wp.array(dtype=float), result: wp.array(dtype=float), dst: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    a_left = a[max(tid - 1, 0)]
    a_right = a[min(tid + 1, 63)]
    q_v = q[tid]
    src_v = src[tid]
    a_v = a[tid]
    fx = float(tid) / 64.0
    r1 = float(0.0)
    if -src_v >= a_v:
        r1 = a_left / (abs(a_right) + 0.5)
    else:
        r1 = (a_v / 4.0) / (abs(q_v) + 2.0)
    acc2 = float(0.0)
    for k in range(4):
        if -float(k) <= a_right:
            break
        acc2 = r1 / (abs(src_v) + 0.5) + 0.25 * wp.sin(acc2)
    result[tid] = (((-src_v) - (fx / 1.5)) - WEIGHT_627F75DEED) + acc2
    dst[tid] = max(a_right, a_v)
