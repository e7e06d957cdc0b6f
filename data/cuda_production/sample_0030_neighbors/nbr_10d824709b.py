import warp as wp


POLY6_NORM = wp.constant(20.87)

@wp.kernel
def nbr_10d824709b(bvh: wp.uint64, pos: wp.array[wp.vec3], smoothing_length: float, mass: wp.array[float], densities: wp.array[float]):
    tid = wp.tid()
    p = pos[tid]
    h2 = smoothing_length * smoothing_length
    density = float(0.0)
    candidates = wp.bvh_query_sphere(bvh, p, smoothing_length)
    other = int(0)
    while wp.bvh_query_next(candidates, other):
        delta = p - pos[other]
        r2 = wp.dot(delta, delta)
        if r2 < h2:
            density += mass[other] * wp.pow(h2 - r2, 3.0)
    densities[tid] = density * POLY6_NORM
