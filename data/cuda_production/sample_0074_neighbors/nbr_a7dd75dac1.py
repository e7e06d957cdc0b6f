import warp as wp


SMOOTHING_LENGTH = wp.constant(0.25)
POLY6 = wp.constant(410700.0)

@wp.func
def poly6(r2: float, h2: float) -> float:
    w = h2 - r2
    return w * w * w

@wp.kernel
def nbr_a7dd75dac1(grid: wp.uint64, particle_x: wp.array[wp.vec3], particle_mass: float, rho_out: wp.array[float]):
    tid = wp.tid()
    i = wp.hash_grid_point_id(grid, tid)
    xi = particle_x[i]
    h2 = SMOOTHING_LENGTH * SMOOTHING_LENGTH
    rho = float(0.0)
    for j in wp.hash_grid_query(grid, xi, SMOOTHING_LENGTH):
        r_ij = xi - particle_x[j]
        r2 = wp.length_sq(r_ij)
        if r2 < h2:
            rho += particle_mass * poly6(r2, h2)
    rho_out[i] = rho * POLY6
