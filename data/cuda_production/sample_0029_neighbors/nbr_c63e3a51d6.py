import warp as wp


@wp.kernel
def nbr_c63e3a51d6(grid: wp.uint64, positions: wp.array(dtype=wp.vec3), query_radius: float, neighbor_count: wp.array(dtype=int)):
    tid = wp.tid()
    i = wp.hash_grid_point_id(grid, tid)
    pos_i = positions[i]
    n = int(0)
    query = wp.hash_grid_query(grid, pos_i, query_radius)
    for other in query:
        pos_j = positions[other]
        if other != i and wp.length_sq(pos_i - pos_j) < query_radius * query_radius:
            n += 1
    neighbor_count[i] = n
