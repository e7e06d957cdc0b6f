import warp as wp


DAMPING_7388F775EE = wp.constant(-0.375)

@wp.kernel
def ctrl_7388f775ee(q: wp.array(dtype=wp.float32), u: wp.array[float], count: wp.int32, res: wp.array(dtype=float)):
    tid = wp.tid()
    if tid >= count:
        return
    q_v = q[tid]
    u_v = u[tid]
    acc2 = float(0.0)
    c1 = int(0)
    while c1 < 10:
        acc2 = acc2 * 0.75 + (q_v / 0.5)
        c1 = c1 + 1
    res[tid] = (u_v + DAMPING_7388F775EE) + acc2
