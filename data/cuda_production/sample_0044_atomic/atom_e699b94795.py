import warp as wp


@wp.kernel
def atom_e699b94795(rho: wp.array(dtype=wp.float64), count: wp.float64, total: wp.array(dtype=wp.float64), per_cell: wp.array[wp.float32]):
    tid = wp.tid()
    rho_v = rho[tid]
    term = rho_v / count
    total[tid % 4] += term
    per_cell[tid] = float(term)
