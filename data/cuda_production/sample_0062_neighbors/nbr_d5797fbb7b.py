import warp as wp


@wp.kernel
def nbr_d5797fbb7b(grid_id: wp.uint64, points: wp.array(dtype=wp.vec3), cutoff: float, nearest2: wp.array(dtype=float)):
    tid = wp.tid()
    i = wp.hash_grid_point_id(grid_id, tid)
    x_i = points[i]
    nearest = cutoff
    q = wp.hash_grid_query(grid_id, x_i, cutoff)
    other = int(0)
    while wp.hash_grid_query_next(q, other):
        if other == i:
            continue
        delta = x_i - points[other]
        r = wp.length(delta)
        if r < cutoff:
            nearest = wp.min(nearest, r)
    nearest2[i] = nearest
