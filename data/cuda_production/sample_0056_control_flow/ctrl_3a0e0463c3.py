import warp as wp


@wp.kernel
def ctrl_3a0e0463c3(p: wp.array(dtype=float), inp: wp.array[wp.float32], output: wp.array[wp.float32], output2: wp.array[wp.float32]):
    tid = wp.tid()
    p_v = p[tid]
    inp_v = inp[tid]
    acc2 = float(0.0)
    c1 = int(0)
    while c1 < 3:
        acc2 = acc2 + (inp_v - p_v)
        c1 = c1 + 1
    acc3 = float(0.0)
    for k in range(0, 3):
        if acc2 < p_v:
            continue
        acc3 += acc2 + float(tid)
    r4 = float(0.0)
    if min(acc2, p_v) < inp_v:
        r4 = wp.max(wp.max(acc3, p_v), float(tid) - 0.4375)
    else:
        r4 = float(tid)
    output[tid] = r4
    output2[tid] = inp_v - acc3
