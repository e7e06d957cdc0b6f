import warp as wp


@wp.kernel
def atom_0ddbf0b71c(a: wp.array(dtype=wp.float32), counts: wp.array(dtype=float), bins: wp.array(dtype=wp.float32), idx: wp.array[wp.int32], total: wp.array[float], slots: wp.array[wp.float32], prev: wp.array(dtype=float)):
    tid = wp.tid()
    a_v = a[tid]
    idx_v = idx[tid]
    counts[0] += a_v
    wp.atomic_min(bins, idx_v, a_v)
    wp.atomic_sub(total, tid % 4, a_v)
    old1 = wp.atomic_max(slots, tid, wp.abs(a_v))
    prev[tid] = wp.abs(a_v) - old1
