import warp as wp


@wp.kernel
def atom_b9b9bb93ba(src: wp.array[float], bins: wp.array(dtype=wp.float32), idx: wp.array[int], total: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    src_v = src[tid]
    idx_v = idx[tid]
    wp.atomic_min(bins, idx_v, src_v)
    wp.atomic_sub(total, 0, min((-0.125) + src_v, min(float(tid), src_v)))
