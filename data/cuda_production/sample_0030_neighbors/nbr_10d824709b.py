import warp as wp


KERNEL_NORM = 20.87

@wp.func
def poly6(r2: float, h2: float) -> float:
    w = h2 - r2
    return w * w * w

@wp.kernel
def nbr_10d824709b(hash_grid: wp.uint64, x: wp.array(dtype=wp.vec3), h: float, particle_mass: float, densities: wp.array(dtype=float)):
    tid = wp.tid()
    i = wp.hash_grid_point_id(hash_grid, tid)
    p = x[i]
    h2 = h * h
    density = float(0.0)
    q = wp.hash_grid_query(hash_grid, p, h)
    j = int(0)
    while wp.hash_grid_query_next(q, j):
        d = p - x[j]
        r2 = wp.dot(d, d)
        if r2 < h2:
            density += particle_mass * poly6(r2, h2)
    densities[i] = density * KERNEL_NORM
