import warp as wp


@wp.kernel
def vec_ce09310926(queries: wp.array2d(dtype=wp.vec3), p0: wp.vec3, p1: wp.vec3, nearest: wp.array2d(dtype=wp.vec3), dist: wp.array2d(dtype=float)):
    i, j = wp.tid()
    queries_v = queries[i, j]
    ab = p1 - p0
    t = wp.clamp(wp.dot(queries_v - p0, ab) / wp.dot(ab, ab), 0.0, 1.0)
    closest = p0 + t * ab
    nearest[i, j] = closest
    dist[i, j] = wp.length(queries_v - closest)
