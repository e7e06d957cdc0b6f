import warp as wp


@wp.kernel
def atom_19ac478aaa(p: wp.array(dtype=wp.float32), a: wp.array(dtype=float), hist: wp.array[float], bins: wp.array(dtype=float), idx: wp.array(dtype=wp.int32), total: wp.array(dtype=float), slots: wp.array(dtype=wp.float32), prev: wp.array(dtype=float)):
    tid = wp.tid()
    p_v = p[tid]
    a_v = a[tid]
    idx_v = idx[tid]
    wp.atomic_add(hist, tid % 8, wp.abs(max(a_v, p_v)))
    wp.atomic_max(bins, idx_v, a_v)
    total[0] += a_v
    old1 = wp.atomic_max(slots, tid, p_v)
    prev[tid] = p_v - old1
