import warp as wp


SPEC_POWER = wp.constant(16.0)


@wp.kernel
def vec_12fabe186d(normals_x: wp.array2d(dtype=wp.float32), normals_y: wp.array2d(dtype=wp.float32), normals_z: wp.array2d(dtype=wp.float32), base_color: wp.array2d(dtype=wp.float32), p_world_x: wp.array2d(dtype=wp.float32), p_world_y: wp.array2d(dtype=wp.float32), p_world_z: wp.array2d(dtype=wp.float32), lamp: wp.vec3, ambient: wp.float32, to_eye: wp.vec3, running_radiance: wp.array2d(dtype=wp.float32), momentum: wp.float32):
    i, j = wp.tid()
    normals_v = wp.vec3(normals_x[i, j], normals_y[i, j], normals_z[i, j])
    p_world_v = wp.vec3(p_world_x[i, j], p_world_y[i, j], p_world_z[i, j])
    n = wp.normalize(normals_v)
    to_l = lamp - p_world_v
    dist2 = wp.dot(to_l, to_l)
    l = to_l / wp.sqrt(dist2)
    ndotl = wp.max(wp.dot(n, l), 0.0) * 16.0 / dist2
    h = wp.normalize(l + wp.normalize(to_eye))
    spec = wp.pow(wp.max(wp.dot(n, h), 0.0), SPEC_POWER)
    running_radiance[i, j] = (1.0 - momentum) * running_radiance[i, j] + momentum * (base_color[i, j] * (ambient + ndotl) + spec)
