import warp as wp


@wp.kernel
def mesh_c3a459dfc5(mesh: wp.uint64, cam_pos: wp.vec3, far: float, w: int, sun: wp.vec3, color_out: wp.array[wp.vec3]):
    tid = wp.tid()
    x = tid % w
    y = tid // w
    sx = (float(x) - 47.5) / 32.0
    sy = (31.5 - float(y)) / 32.0
    rd = wp.normalize(wp.vec3(sx, sy, -1.5))
    hit = wp.mesh_query_ray(mesh, cam_pos, rd, far)
    c = wp.vec3(0.0)
    if hit.result:
        n = hit.normal
        diffuse = wp.max(wp.dot(n, sun), 0.0)
        c = wp.vec3(diffuse, diffuse, diffuse) * 0.8 + wp.vec3(0.1, 0.1, 0.1)
    color_out[tid] = c
