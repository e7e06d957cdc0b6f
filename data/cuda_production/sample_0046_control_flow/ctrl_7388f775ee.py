import warp as wp


DAMPING_7388F775EE = wp.constant(-0.375)

@wp.kernel
def ctrl_7388f775ee(q: wp.array(dtype=wp.float32), count: wp.int32, gains: wp.array(dtype=float), y_out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    if tid >= count:
        return
    q_v = q[tid]
    acc2 = float(0.0)
    c1 = int(0)
    while c1 < 10:
        acc2 += gains[c1] * (q_v / 4.0)
        c1 = c1 + 1
    y_out[tid] = acc2 + DAMPING_7388F775EE
