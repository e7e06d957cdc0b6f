import warp as wp


WEIGHT_627F75DEED = wp.constant(1.375)

@wp.kernel
def ctrl_627f75deed(q: wp.array[wp.float32], src: wp.array[float], a: wp.array(dtype=float), count: wp.int32, output: wp.array[float]):
    tid = wp.tid()
    a_left = a[max(tid - 1, 0)]
    a_right = a[min(tid + 1, 63)]
    q_v = q[tid]
    src_v = src[tid]
    a_v = a[tid]
    r1 = float(0.0)
    if wp.abs(tid) >= 6:
        r1 = a_left / (abs(a_right) + 0.5)
    else:
        r1 = (float(tid) / 1.5) / (abs(src_v / 4.0) + 0.5)
    acc2 = float(0.0)
    for k in range(0, count):
        acc2 = acc2 * 0.5 + ((-a_v) - (-q_v))
    output[tid] = ((r1 / (abs(a_right) + 1.0)) / (abs(acc2 / (abs(src_v) + 2.0)) + 1.0)) + WEIGHT_627F75DEED
