import warp as wp


RADIUS = wp.constant(0.25)


@wp.kernel
def vec_c89a41b966(points: wp.array2d(dtype=wp.vec3), p0: wp.vec3, seg_b: wp.vec3, stiffness: float, penalty: wp.array2d(dtype=float), dist: wp.array2d(dtype=float)):
    i, j = wp.tid()
    points_v = points[i, j]
    ab = seg_b - p0
    t = wp.clamp(wp.dot(points_v - p0, ab) / wp.length_sq(ab), 0.0, 1.0)
    d = wp.length(points_v - (p0 + t * ab)) - RADIUS
    penalty[i, j] = stiffness * wp.max(-d, 0.0)
    dist[i, j] = d
