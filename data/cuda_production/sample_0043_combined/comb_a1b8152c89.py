import warp as wp


@wp.func
def comb_a1b8152c89_fn0(x: float, y: float, z: float) -> float:
    return wp.abs(wp.min(z, y))

@wp.kernel
def comb_a1b8152c89(p: wp.array(dtype=wp.float32), u: wp.array(dtype=float), data: wp.array[float], acc: wp.array[wp.float32], u2: wp.array[wp.vec3], res: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    wp.atomic_add(acc, tid % 8, data[tid])
    v1 = wp.where(p[tid] <= data[tid], u[tid], u[tid])
    v2 = comb_a1b8152c89_fn0(wp.tanh(v1), v1, wp.clamp(float(tid), -4.0, 4.0))
    t3 = wp.normalize(u2[tid])
    s4 = t3.x
    res[tid] = wp.abs(v2) + s4
