import warp as wp


@wp.kernel
def math_0496bcdf7a(q: wp.array(dtype=float), out: wp.array[float]):
    tid = wp.tid()
    v1 = wp.pow(wp.abs(q[tid]) + 1.0, 0.5)
    v2 = wp.log(wp.abs(float(tid)) + 1.0)
    v3 = (-2.125) / 4.0
    out[tid] = ((wp.log(wp.abs(wp.abs(wp.abs(float(tid)))) + 1.0) + v1) - v2) - v3
