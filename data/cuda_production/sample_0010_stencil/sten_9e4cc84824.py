import warp as wp


TIME_STEP = wp.constant(0.375)


@wp.func
def lookup(f: wp.array(dtype=float), x: int) -> float:
    if x < 0 or x >= f.shape[0]:
        return 0.0
    return f[x]

@wp.kernel
def sten_9e4cc84824(field: wp.array(dtype=float), field_new: wp.array(dtype=float), vel: wp.array(dtype=float)):
    tid = wp.tid()
    vc = vel[tid]
    px = float(tid) - vc * TIME_STEP
    lx = int(wp.floor(px))
    tx = px - float(lx)
    field_new[tid] = wp.lerp(lookup(field, lx), lookup(field, lx + 1), tx)
