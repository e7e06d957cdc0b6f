import warp as wp


@wp.kernel
def atom_fbb76eb576(density: wp.array[wp.float64], count: wp.int32, voxel_size: wp.float64, total: wp.array[wp.float64]):
    tid = wp.tid()
    if tid >= count:
        return
    density_v = density[tid]
    wp.atomic_add(total, tid % 8, density_v * voxel_size)
