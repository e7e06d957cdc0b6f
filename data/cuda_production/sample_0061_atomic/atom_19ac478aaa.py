import warp as wp


@wp.kernel
def atom_19ac478aaa(u: wp.array2d(dtype=int), label: wp.array2d(dtype=int), remaining: wp.array(dtype=int), segment: wp.array2d(dtype=int), cell_min: wp.array(dtype=int)):
    i, j = wp.tid()
    label_v = label[i, j]
    u_v = u[i, j]
    segment_v = segment[i, j]
    remaining[label_v] -= u_v
    wp.atomic_min(cell_min, segment_v, u_v)
