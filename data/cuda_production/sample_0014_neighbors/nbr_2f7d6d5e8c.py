import warp as wp


@wp.kernel(enable_backward=False)
def nbr_2f7d6d5e8c(grid: wp.uint64, positions: wp.array(dtype=wp.vec3), radius: float, neighbor_count: wp.array(dtype=int)):
    tid = wp.tid()
    pos_i = positions[tid]
    count = int(0)
    query = wp.hash_grid_query(grid, pos_i, radius)
    for other in query:
        dist = wp.length(pos_i - positions[other])
        if other != tid and dist <= radius:
            count += 1
    neighbor_count[tid] = count
