import warp as wp


@wp.kernel(enable_backward=False)
def nbr_accba3f527(bvh: wp.uint64, points: wp.array[wp.vec3], neighbor_radius: float, counts: wp.array[int]):
    tid = wp.tid()
    p = points[tid]
    n = int(0)
    query = wp.bvh_query_aabb(bvh, p, p)
    other = int(0)
    while wp.bvh_query_next(query, other):
        if other == tid:
            continue
        if wp.length_sq(p - points[other]) <= neighbor_radius * neighbor_radius:
            n += 1
    counts[tid] = n
