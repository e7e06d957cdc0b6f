import warp as wp


@wp.kernel
def atom_e86c6bc2f9(a: wp.array(dtype=wp.float32), total: wp.array(dtype=wp.float32), counts: wp.array(dtype=float), counts2: wp.array[wp.float32], slots: wp.array(dtype=wp.float32), prev: wp.array(dtype=float)):
    tid = wp.tid()
    a_v = a[tid]
    wp.atomic_sub(total, tid % 8, a_v)
    wp.atomic_max(counts, tid % 32, a_v)
    wp.atomic_sub(counts2, 0, 0.4375 * a_v)
    old1 = wp.atomic_min(slots, tid, a_v)
    prev[tid] = a_v - old1
