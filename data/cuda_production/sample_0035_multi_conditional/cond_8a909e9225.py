import warp as wp


@wp.kernel
def cond_8a909e9225(inp: wp.array(dtype=float), a: wp.array(dtype=float), q: wp.array[float], result: wp.array[wp.float32]):
    tid = wp.tid()
    r1 = -a[tid]
    if -inp[tid] < q[tid]:
        r1 = a[tid]
    else:
        r1 = q[tid]
    if -a[tid] < a[tid]:
        r1 = min(a[tid], q[tid])
        if inp[tid] > 0.25:
            r1 = -2.1875
        elif wp.abs(inp[tid]) < q[tid]:
            r1 = a[tid] - inp[tid]
        else:
            r1 = inp[tid]
    else:
        r1 = a[tid]
    result[tid] = r1
