import warp as wp


@wp.kernel
def ctrl_642c28f072(p: wp.array[wp.float32], res: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    acc2 = float(0.0)
    c1 = int(0)
    while c1 < 6:
        acc2 = acc2 + (p[tid] / (wp.abs(p[tid]) + 1.0))
        c1 = c1 + 1
    res[tid] = (2.0 / 3.0) + acc2
