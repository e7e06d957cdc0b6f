import warp as wp


@wp.kernel
def atom_8f90b8570e(count: int, x: wp.array[float], label: wp.array[int], acc: wp.array[float], counts: wp.array[int], lowest: wp.array[float], improvement: wp.array[float]):
    tid = wp.tid()
    if tid >= count:
        return
    label_v = label[tid]
    x_v = x[tid]
    wp.atomic_add(acc, label_v, x_v)
    wp.atomic_add(counts, label_v, 1)
    old = wp.atomic_min(lowest, tid, x_v)
    improvement[tid] = wp.max(old - x_v, 0.0)
