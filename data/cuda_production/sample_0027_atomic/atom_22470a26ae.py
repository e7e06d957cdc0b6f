import warp as wp


@wp.kernel
def atom_22470a26ae(b: wp.array[int], x: wp.array[int], total: wp.array(dtype=int), idx: wp.array(dtype=wp.int32), total2: wp.array(dtype=int), acc: wp.array[int]):
    tid = wp.tid()
    wp.atomic_sub(total, idx[tid], tid)
    wp.atomic_add(total2, 0, max(b[tid], x[tid]))
    wp.atomic_add(acc, tid % 8, min(1, min(3, x[tid])))
