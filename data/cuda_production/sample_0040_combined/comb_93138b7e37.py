import warp as wp


@wp.func
def comb_93138b7e37_fn0(x: float, y: float) -> float:
    return wp.tanh(y)

@wp.kernel
def comb_93138b7e37(p: wp.array[wp.float32], x: wp.array[wp.float32], inp: wp.array[wp.vec3], out: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    acc1 = float(0.0)
    for k in range(3, -1, -1):
        acc1 += wp.min(p[tid] / 3.0, x[tid])
    s2 = wp.dot(inp[tid] + inp[tid], inp[tid] - inp[tid])
    v3 = comb_93138b7e37_fn0(wp.clamp(float(tid) + acc1, -4.0, 4.0), wp.clamp(min(s2, p[tid]), -4.0, 4.0))
    out[tid] = v3 / 2.0
