import warp as wp


@wp.kernel
def atom_872d6f6891(data: wp.array(dtype=float), mask: wp.array(dtype=int), pos_x: wp.array(dtype=float), group_total: wp.array(dtype=float), counts: wp.array(dtype=int), min_per_group: wp.array(dtype=float)):
    tid = wp.tid()
    mask_v = mask[tid]
    pos_x_v = pos_x[tid]
    data_v = data[tid]
    if mask_v != 0:
        cell = wp.clamp(int(pos_x_v * 8.0), 0, 7)
        wp.atomic_add(group_total, cell, data_v)
        wp.atomic_add(counts, cell, 1)
        wp.atomic_min(min_per_group, cell, data_v)
