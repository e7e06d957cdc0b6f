import warp as wp


@wp.kernel
def nbr_f0209855bf(grid: wp.uint64, positions: wp.array[wp.vec3], smoothing_length: float, v: wp.array[wp.vec3], rho: wp.array[float], nu: float, visc_accel: wp.array[wp.vec3]):
    tid = wp.tid()
    i = wp.hash_grid_point_id(grid, tid)
    xi = positions[i]
    f_visc = wp.vec3(0.0)
    v_i = v[i]
    for j in wp.hash_grid_query(grid, xi, smoothing_length):
        d = xi - positions[j]
        dist = wp.length(d)
        if j != i and dist < smoothing_length:
            f_visc += (v[j] - v_i) * ((smoothing_length - dist) / rho[j])
    visc_accel[i] = f_visc * nu
