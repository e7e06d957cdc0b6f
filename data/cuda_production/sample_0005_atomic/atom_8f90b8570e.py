import warp as wp


@wp.kernel
def atom_8f90b8570e(mask: wp.array(dtype=wp.int32), x: wp.array(dtype=wp.float32), label: wp.array(dtype=wp.int32), acc: wp.array(dtype=wp.float32), counts: wp.array(dtype=wp.int32), lowest: wp.array(dtype=wp.float32), improvement: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    if mask[tid] == 0:
        return
    label_v = label[tid]
    x_v = x[tid]
    wp.atomic_add(acc, label_v, x_v)
    wp.atomic_add(counts, label_v, 1)
    old = wp.atomic_min(lowest, tid, x_v)
    improvement[tid] = wp.max(old - x_v, 0.0)
