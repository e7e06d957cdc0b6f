import warp as wp


@wp.kernel
def atom_a38f335c82(density: wp.array(dtype=wp.float64), normalization: wp.float64, total: wp.array(dtype=wp.float64)):
    tid = wp.tid()
    density_v = density[tid]
    wp.atomic_add(total, tid % 4, density_v * density_v / normalization)
