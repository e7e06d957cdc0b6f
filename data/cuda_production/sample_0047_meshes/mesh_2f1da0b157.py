import warp as wp


@wp.kernel
def mesh_2f1da0b157(geometry: wp.uint64, pos: wp.array(dtype=wp.vec3), inside_count: wp.array(dtype=int)):
    tid = wp.tid()
    point = pos[tid]
    hit = wp.mesh_query_point(geometry, point, 1.0e6)
    if hit.sign < 0.0:
        wp.atomic_add(inside_count, 0, 1)
