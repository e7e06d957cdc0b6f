import warp as wp


@wp.kernel
def atom_e5cdc32c1a(p: wp.array[float], w: wp.array(dtype=float), total: wp.array(dtype=float), counts: wp.array(dtype=wp.float32), slots: wp.array(dtype=wp.float32), prev: wp.array[float]):
    tid = wp.tid()
    wp.atomic_min(total, 0, min(w[tid] + p[tid], p[tid] * w[tid]))
    wp.atomic_sub(counts, tid % 4, -p[tid])
    old1 = wp.atomic_add(slots, tid, max(p[tid], p[tid]))
    prev[tid] = old1
