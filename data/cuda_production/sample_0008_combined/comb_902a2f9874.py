import warp as wp


@wp.func
def comb_902a2f9874_fn0(x: float, y: float, z: float) -> float:
    g = x / 0.5
    e = z * z
    d = y / 0.5
    return ((wp.tanh(d) / 1.5) - g) + e

@wp.kernel
def comb_902a2f9874(vals: wp.array(dtype=float), inp: wp.array[wp.float32], count: int, acc: wp.array(dtype=wp.float32), a: wp.array(dtype=wp.vec3), output: wp.array[wp.float32]):
    tid = wp.tid()
    if tid >= count:
        return
    vals_v = vals[tid]
    inp_v = inp[tid]
    cx = (float(tid) + 0.5) * 0.015625
    a_v = a[tid]
    acc2 = float(0.0)
    c1 = int(0)
    while c1 < 8:
        acc2 = wp.tanh(0.25 * acc2 + vals_v)
        c1 = c1 + 1
    v3 = comb_902a2f9874_fn0(vals_v, wp.clamp(cx, -4.0, 4.0), wp.log(wp.abs(inp_v) + 1.0))
    wp.atomic_add(acc, 0, inp_v)
    s4 = a_v.y
    output[tid] = ((wp.floor(inp_v) - acc2) + v3) + s4
