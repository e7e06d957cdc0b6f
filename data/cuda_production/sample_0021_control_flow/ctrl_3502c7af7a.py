import warp as wp


@wp.kernel
def ctrl_3502c7af7a(w: wp.array[wp.float32], output: wp.array[float]):
    tid = wp.tid()
    acc2 = float(0.0)
    c1 = int(0)
    while c1 < 6:
        acc2 = acc2 + max(wp.abs(w[tid]), -(-1.4375))
        c1 = c1 + 1
    output[tid] = -(acc2 / 4.0)
