import warp as wp


OFFSET = 0.0001
INTENSITY = 1.0

@wp.kernel
def mesh_9d5bdc0065(mesh: wp.uint64, pos: wp.array[wp.vec3], light: wp.vec3, indices: wp.array[wp.int32], light_in: wp.array[wp.float32], normals: wp.array[wp.vec3]):
    tid = wp.tid()
    pid = indices[tid]
    point = pos[pid]
    d = light - point
    dist = wp.length(d)
    wi = d / dist
    origin_biased = point + wi * OFFSET
    q = wp.mesh_query_ray(mesh, origin_biased, wi, dist)
    n_dot_l = wp.max(wp.dot(wp.normalize(normals[pid]), d) / dist, 0.0)
    if not q.result:
        light_in[tid] = INTENSITY * n_dot_l / (dist * dist)
