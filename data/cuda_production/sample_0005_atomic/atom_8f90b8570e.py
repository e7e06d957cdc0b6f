import warp as wp


@wp.kernel
def atom_8f90b8570e(mask: wp.array(dtype=wp.int32), x: wp.array(dtype=wp.float32), label: wp.array(dtype=wp.int32), sums: wp.array(dtype=wp.float32), counts: wp.array(dtype=wp.int32), bin_sums: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    if mask[tid] == 0:
        return
    x_v = x[tid]
    sums[label[tid]] += wp.abs(x_v)
    b = wp.clamp(int((x_v + 4.0) * 2.0), 0, 15)
    wp.atomic_add(counts, b, 1)
    wp.atomic_add(bin_sums, b, x_v)
