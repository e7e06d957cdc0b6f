import warp as wp


RADIUS = wp.constant(0.25)


@wp.kernel
def vec_c89a41b966(x: wp.array2d(dtype=wp.vec2), p0: wp.vec2, seg_b: wp.vec2, stiffness: float, penalty: wp.array2d(dtype=float), dist: wp.array2d(dtype=float)):
    i, j = wp.tid()
    x_v = x[i, j]
    ab = seg_b - p0
    t = wp.clamp(wp.dot(x_v - p0, ab) / wp.length_sq(ab), 0.0, 1.0)
    d = wp.length(x_v - (p0 + t * ab)) - RADIUS
    penalty[i, j] = stiffness * wp.max(-d, 0.0)
    dist[i, j] = d
