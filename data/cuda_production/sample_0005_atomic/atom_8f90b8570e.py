import warp as wp


@wp.kernel
def atom_8f90b8570e(b: wp.array(dtype=wp.float32), acc: wp.array(dtype=float), idx: wp.array[int], slots: wp.array(dtype=float), prev: wp.array[wp.float32]):
    tid = wp.tid()
    b_v = b[tid]
    idx_v = idx[tid]
    wp.atomic_min(acc, idx_v, b_v)
    old1 = wp.atomic_sub(slots, tid, -b_v)
    prev[tid] = (-b_v) - old1
