import warp as wp


@wp.kernel
def vec_ce09310926(points: wp.array2d(dtype=wp.vec3), p0: wp.vec3, end: wp.vec3, radius: wp.float32, k_contact: wp.float32, penalty: wp.array2d(dtype=wp.float32), dist: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    points_v = points[i, j]
    ab = end - p0
    t = wp.clamp(wp.dot(points_v - p0, ab) / wp.length_sq(ab), 0.0, 1.0)
    d = wp.length(points_v - (p0 + t * ab)) - radius
    penalty[i, j] = k_contact * wp.max(-d, 0.0)
    dist[i, j] = d
