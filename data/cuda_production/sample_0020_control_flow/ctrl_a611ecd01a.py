import warp as wp


@wp.kernel
def ctrl_a611ecd01a(q: wp.array[wp.float32], vals: wp.array(dtype=float), output: wp.array[wp.float32]):
    tid = wp.tid()
    r1 = wp.abs(vals[tid])
    if r1 - r1 < q[tid]:
        r1 = vals[tid] + q[tid]
    acc3 = float(0.0)
    c2 = int(0)
    while c2 < 6:
        acc3 = acc3 + max(vals[tid], q[tid])
        c2 = c2 + 1
    output[tid] = -wp.abs(acc3)
