import warp as wp


QUERY_RADIUS = 0.5

@wp.kernel
def nbr_d5797fbb7b(bvh: wp.uint64, particle_x: wp.array[wp.vec3], nearest: wp.array[float]):
    tid = wp.tid()
    xi = particle_x[tid]
    min_dist = QUERY_RADIUS
    query = wp.bvh_query_aabb(bvh, xi, xi)
    j = int(0)
    while wp.bvh_query_next(query, j):
        if j != tid:
            xj = particle_x[j]
            dx = xi - xj
            dist = wp.length(dx)
            if dist > QUERY_RADIUS:
                continue
            if dist < min_dist:
                min_dist = dist
    nearest[tid] = min_dist
