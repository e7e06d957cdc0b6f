import warp as wp


@wp.kernel
def mesh_17a4b1d51b(geometry: wp.uint64, particle_x: wp.array(dtype=wp.vec3), bins: wp.array(dtype=int)):
    tid = wp.tid()
    x_i = particle_x[tid]
    query = wp.mesh_query_point_sign_normal(geometry, x_i, 1.0e6)
    slot = int(0)
    if query.sign < 0.0:
        slot = 1
    wp.atomic_add(bins, slot, 1)
