import warp as wp


@wp.kernel
def atom_8f90b8570e(b: wp.array[float], src: wp.array(dtype=float), acc: wp.array(dtype=float), idx: wp.array[int], counts: wp.array[wp.float32], acc2: wp.array[wp.float32], idx2: wp.array(dtype=int), slots: wp.array[float], prev: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    b_v = b[tid]
    src_v = src[tid]
    idx_v = idx[tid]
    idx2_v = idx2[tid]
    wp.atomic_min(acc, idx_v, src_v)
    wp.atomic_sub(counts, tid % 8, max(src_v, 0.5))
    wp.atomic_sub(acc2, idx2_v, b_v)
    old1 = wp.atomic_min(slots, tid, -src_v)
    prev[tid] = (-src_v) - old1
