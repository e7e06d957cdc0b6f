import warp as wp


@wp.kernel
def atom_fbb76eb576(density: wp.array[wp.float64], num: int, cell_volume: wp.float64, accum: wp.array[wp.float64], cell_term: wp.array[float]):
    tid = wp.tid()
    if tid >= num:
        return
    density_v = density[tid]
    term = density_v * cell_volume
    accum[tid % 8] += term
    cell_term[tid] = float(term)
