import warp as wp


@wp.kernel
def atom_a38f335c82(density: wp.array(dtype=wp.float64), total_cells: wp.float64, total: wp.array(dtype=wp.float64), segment: wp.array(dtype=wp.int32), cell_value: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    density_v = density[tid]
    segment_v = segment[tid]
    dev = density_v - wp.float64(0.25)
    term = dev * dev / total_cells
    wp.atomic_add(total, segment_v, term)
    cell_value[tid] = float(term)
