import warp as wp


@wp.func
def comb_0734f48d85_fn0(x: float, y: float, z: float) -> float:
    return wp.log(wp.abs(max(y, x)) + 1.0)

@wp.kernel
def comb_0734f48d85(b: wp.array(dtype=wp.float32), y: wp.array(dtype=float), acc: wp.array(dtype=float), dst: wp.array[wp.float32]):
    tid = wp.tid()
    v1 = comb_0734f48d85_fn0(wp.clamp(wp.pow(wp.abs(y[tid]) + 1.0, 2.0), -4.0, 4.0), b[tid], y[tid])
    wp.atomic_add(acc, tid % 16, wp.max(2.5, b[tid]))
    acc2 = float(0.0)
    for k in range(3):
        acc2 += wp.max(v1, y[tid])
    dst[tid] = wp.min(acc2, b[tid])
