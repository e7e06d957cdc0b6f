import warp as wp


OFFSET = wp.constant(0.001)

@wp.kernel(enable_backward=False)
def mesh_eaf8b75f7e(collider: wp.uint64, particle_x: wp.array[wp.vec3], light: wp.vec3, lit: wp.array[float]):
    tid = wp.tid()
    p = particle_x[tid]
    l = light - p
    t_max = wp.length(l)
    ro = p + l / t_max * OFFSET
    q = wp.mesh_query_ray(collider, ro, l / t_max, t_max)
    lit[tid] = 1.0
    if q.result:
        lit[tid] = 0.0
