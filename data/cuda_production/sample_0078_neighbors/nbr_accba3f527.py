import warp as wp


@wp.kernel(enable_backward=False)
def nbr_accba3f527(hash_grid: wp.uint64, x: wp.array(dtype=wp.vec3), cutoff: float, num_neighbors: wp.array(dtype=int)):
    tid = wp.tid()
    i = wp.hash_grid_point_id(hash_grid, tid)
    pos_i = x[i]
    num = int(0)
    for index in wp.hash_grid_query(hash_grid, pos_i, cutoff):
        d = pos_i - x[index]
        dist = wp.length(d)
        if dist <= cutoff:
            num += 1
    num_neighbors[i] = num
