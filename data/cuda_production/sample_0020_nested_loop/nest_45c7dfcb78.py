import warp as wp


@wp.kernel
def nest_45c7dfcb78(u: wp.array(dtype=wp.float32), rows: wp.array2d(dtype=wp.float32), out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    u_v = u[tid]
    total1 = float(0.0)
    for r in range(3):
        acc2 = float(0.0)
        for c in range(8):
            acc2 = acc2 + (rows[tid, c] - wp.min(wp.abs(u_v), float(c)))
        total1 = total1 + acc2
    out[tid] = total1
