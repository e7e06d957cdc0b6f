import warp as wp


@wp.kernel
def atom_ec226e20cf(b: wp.array[int], active: wp.array[int], label: wp.array[int], sums: wp.array[int]):
    tid = wp.tid()
    active_v = active[tid]
    label_v = label[tid]
    b_v = b[tid]
    if active_v != 0:
        sums[label_v] += b_v
