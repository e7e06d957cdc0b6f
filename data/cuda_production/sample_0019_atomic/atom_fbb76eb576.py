import warp as wp


@wp.kernel
def atom_fbb76eb576(density: wp.array[wp.float64], num: int, cell_volume: wp.float64, h: wp.float64, mass_x: wp.array[wp.float64], accum: wp.array[wp.float64], group: wp.array[int]):
    tid = wp.tid()
    if tid >= num:
        return
    density_v = density[tid]
    group_v = group[tid]
    wp.atomic_add(mass_x, 0, (wp.float64(tid) + wp.float64(0.5)) * h * density_v * cell_volume)
    accum[group_v] += density_v * cell_volume
