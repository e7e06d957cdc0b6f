import warp as wp


@wp.kernel(enable_backward=False)
def mesh_17a4b1d51b(geometry: wp.uint64, particle_x: wp.array(dtype=wp.vec3), flags: wp.array(dtype=int)):
    tid = wp.tid()
    x_i = particle_x[tid]
    q = wp.mesh_query_point(geometry, x_i, 1.0e6)
    if not q.result:
        return
    if q.sign < 0.0:
        flags[tid] = 1
