import warp as wp


TIME_STEP = 0.4375
RELAX = 0.75


@wp.func
def at(f: wp.array(dtype=float), x: int) -> float:
    if x < 0 or x >= f.shape[0]:
        return 0.0
    return f[x]

@wp.kernel(enable_backward=False)
def sten_9e4cc84824(field: wp.array(dtype=float), advected: wp.array(dtype=float), v: wp.array(dtype=float), mix_rate: float):
    tid = wp.tid()
    vc = v[tid]
    px = float(tid) - vc * TIME_STEP
    lx = int(wp.floor(px))
    tx = px - float(lx)
    s0 = wp.lerp(at(field, lx), at(field, lx + 1), tx)
    s0 *= RELAX
    advected[tid] = (1.0 - mix_rate) * advected[tid] + mix_rate * s0
