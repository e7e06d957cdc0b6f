import warp as wp


@wp.kernel
def mesh_17a4b1d51b(particle_x: wp.array(dtype=wp.vec3), bins: wp.array(dtype=int), point_mass: wp.array(dtype=float), binned_mass: wp.array(dtype=float), geometry: wp.uint64):
    tid = wp.tid()
    x_i = particle_x[tid]
    query = wp.mesh_query_point_sign_normal(geometry, x_i, 1.0e6)
    slot = int(0)
    if query.sign < 0.0:
        slot = 1
    wp.atomic_add(bins, slot, 1)
    wp.atomic_add(binned_mass, slot, point_mass[tid])
