import warp as wp


@wp.func
def comb_902a2f9874_fn0(x: float, y: float, z: float) -> float:
    e = x + z
    d = x + y
    t = x + d
    return (wp.log(wp.abs(t / 0.5) + 1.0) + e) - d

@wp.kernel
def comb_902a2f9874(vals: wp.array(dtype=float), inp: wp.array[wp.float32], count: int, acc: wp.array(dtype=wp.float32), w: wp.array[wp.vec3], dst: wp.array[wp.float32]):
    tid = wp.tid()
    if tid >= count:
        return
    vals_v = vals[tid]
    inp_v = inp[tid]
    w_v = w[tid]
    acc2 = float(0.0)
    c1 = int(0)
    while c1 < 8:
        acc2 = acc2 * 0.25 + vals_v
        c1 = c1 + 1
    v3 = comb_902a2f9874_fn0(wp.clamp(inp_v + acc2, -4.0, 4.0), wp.floor(vals_v), wp.tanh(inp_v))
    wp.atomic_add(acc, tid % 16, vals_v)
    s4 = w_v.x
    dst[tid] = (wp.floor(vals_v) + v3) + s4
