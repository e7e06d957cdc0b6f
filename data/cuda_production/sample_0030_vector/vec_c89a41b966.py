import warp as wp


@wp.kernel
def vec_c89a41b966(points: wp.array2d(dtype=wp.vec3), p0: wp.vec3, seg_b: wp.vec3, radius: float, stiffness: float, penalty: wp.array2d(dtype=wp.float32), dist: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    points_v = points[i, j]
    ab = seg_b - p0
    t = wp.clamp(wp.dot(points_v - p0, ab) / wp.length_sq(ab), 0.0, 1.0)
    d = wp.length(points_v - (p0 + t * ab)) - radius
    penalty[i, j] = stiffness * wp.max(-d, 0.0)
    dist[i, j] = d
