import warp as wp


@wp.kernel
def atom_2c120e4e85(p: wp.array2d(dtype=wp.int32), counts: wp.array(dtype=wp.int32), bin_sums: wp.array(dtype=wp.int32), total: wp.array(dtype=wp.int32), sum_sq: wp.array(dtype=wp.int32)):
    i, j = wp.tid()
    p_v = p[i, j]
    b = ((p_v % 8) + 8) % 8
    counts[b] += 1
    wp.atomic_add(bin_sums, b, p_v)
    total[0] += p_v
    wp.atomic_add(sum_sq, 0, p_v * p_v)
