import warp as wp


@wp.kernel
def atom_e699b94795(q: wp.array(dtype=float), bins: wp.array(dtype=float), bins2: wp.array[wp.float32], idx: wp.array(dtype=int), acc: wp.array(dtype=float), idx2: wp.array(dtype=int), slots: wp.array[wp.float32], prev: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    q_v = q[tid]
    idx_v = idx[tid]
    idx2_v = idx2[tid]
    wp.atomic_min(bins, tid % 64, -q_v)
    wp.atomic_min(bins2, idx_v, q_v)
    wp.atomic_min(acc, idx2_v, -q_v)
    old1 = wp.atomic_max(slots, tid, max(q_v, 0.6875))
    prev[tid] = max(q_v, 0.6875) - old1
