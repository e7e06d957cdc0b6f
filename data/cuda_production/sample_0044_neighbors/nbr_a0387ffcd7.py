import warp as wp


@wp.kernel
def nbr_a0387ffcd7(neighbor_grid: wp.uint64, pos: wp.array(dtype=wp.vec3), cutoff: float, well_depth: float, sigma_lj: float, f_lj2: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    xi = pos[tid]
    f_lj = wp.vec3(0.0)
    s2 = sigma_lj * sigma_lj
    query = wp.hash_grid_query(neighbor_grid, xi, cutoff)
    index = int(0)
    while wp.hash_grid_query_next(query, index):
        if index == tid:
            continue
        delta = xi - pos[index]
        d2 = wp.length_sq(delta)
        if d2 >= cutoff * cutoff:
            continue
        rr = wp.max(d2, s2 * 0.25)
        sr2 = s2 / rr
        sr6 = sr2 * sr2 * sr2
        f_lj += delta * (24.0 * well_depth * (2.0 * sr6 * sr6 - sr6) / rr)
    f_lj2[tid] = f_lj
