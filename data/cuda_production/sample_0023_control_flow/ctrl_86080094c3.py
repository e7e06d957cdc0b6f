import warp as wp


@wp.kernel
def ctrl_86080094c3(p: wp.array(dtype=float), res: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    r1 = float(tid) / (abs(float(tid)) + 1.0)
    if p[tid] - float(tid) >= p[tid]:
        r1 = p[tid] / (wp.abs(p[tid]) + 1.0)
    else:
        r1 = 1.875 / (abs(float(tid)) + 2.0)
    acc3 = float(0.0)
    c2 = int(0)
    while c2 < 2:
        acc3 = acc3 + (p[tid] / 2.0)
        c2 = c2 + 1
    res[tid] = acc3 + r1
