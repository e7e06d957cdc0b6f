import warp as wp


@wp.kernel(enable_backward=False)
def nbr_2f7d6d5e8c(grid_id: wp.uint64, x: wp.array[wp.vec3], radius: float, neighbor_count: wp.array[int]):
    tid = wp.tid()
    pos_i = x[tid]
    count = int(0)
    query = wp.hash_grid_query(grid_id, pos_i, radius)
    for other in query:
        dist = wp.length(pos_i - x[other])
        if other != tid and dist <= radius:
            count += 1
    neighbor_count[tid] = count
