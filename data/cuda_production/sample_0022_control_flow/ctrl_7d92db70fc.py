import warp as wp


@wp.kernel
def ctrl_7d92db70fc(p: wp.array[float], y_out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    acc2 = float(0.0)
    c1 = int(0)
    while c1 < 6:
        acc2 = acc2 + max(p[tid], p[tid])
        c1 = c1 + 1
    y_out[tid] = (p[tid] + float(tid)) + acc2
