import warp as wp


@wp.kernel
def atom_6b9d7d56ba(y: wp.array[wp.float32], active: wp.array[wp.int32], group: wp.array[wp.int32], sums: wp.array[wp.float32], counts: wp.array[wp.int32], max_per_group: wp.array[wp.float32], min_per_group: wp.array[wp.float32], total: wp.array[wp.float32], sum_x2: wp.array[wp.float32]):
    tid = wp.tid()
    active_v = active[tid]
    group_v = group[tid]
    y_v = y[tid]
    if active_v != 0:
        wp.atomic_add(sums, group_v, y_v)
        wp.atomic_add(counts, group_v, 1)
        wp.atomic_max(max_per_group, group_v, y_v)
        wp.atomic_min(min_per_group, group_v, y_v)
        total[0] += y_v
        wp.atomic_add(sum_x2, 0, y_v * y_v)
