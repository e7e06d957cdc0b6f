import warp as wp


@wp.kernel
def atom_c27a0a6cdc(u: wp.array(dtype=float), p: wp.array[float], bins: wp.array(dtype=wp.float32), idx: wp.array(dtype=wp.int32), total: wp.array[wp.float32], slots: wp.array(dtype=wp.float32), prev: wp.array(dtype=float)):
    tid = wp.tid()
    wp.atomic_sub(bins, idx[tid], wp.abs(wp.abs(u[tid])))
    wp.atomic_add(total, tid % 8, p[tid])
    old1 = wp.atomic_sub(slots, tid, p[tid] * u[tid])
    prev[tid] = old1
