import warp as wp


@wp.kernel
def atom_e86c6bc2f9(rho: wp.array[wp.float64], total_cells: wp.float64, weight: wp.array[wp.float32], objective: wp.array(dtype=wp.float64), cell_value: wp.array[float]):
    tid = wp.tid()
    rho_v = rho[tid]
    weight_v = weight[tid]
    contrib = wp.float64(weight_v) * rho_v
    term = contrib / total_cells
    wp.atomic_add(objective, 0, term)
    cell_value[tid] = float(term)
