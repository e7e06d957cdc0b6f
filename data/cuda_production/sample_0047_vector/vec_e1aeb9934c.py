import warp as wp


@wp.kernel
def vec_e1aeb9934c(particle_ids: wp.array(dtype=wp.int32), surface_n_x: wp.array(dtype=wp.float32), surface_n_y: wp.array(dtype=wp.float32), surface_n_z: wp.array(dtype=wp.float32), diffuse_x: wp.array(dtype=wp.float32), diffuse_y: wp.array(dtype=wp.float32), diffuse_z: wp.array(dtype=wp.float32), positions_x: wp.array(dtype=wp.float32), positions_y: wp.array(dtype=wp.float32), positions_z: wp.array(dtype=wp.float32), lamp: wp.vec3, ka: wp.array(dtype=wp.float32), to_eye: wp.vec3, spec_power: wp.float32, color_x: wp.array(dtype=wp.float32), color_y: wp.array(dtype=wp.float32), color_z: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    i = particle_ids[tid]
    surface_n_i = wp.vec3(surface_n_x[i], surface_n_y[i], surface_n_z[i])
    diffuse_i = wp.vec3(diffuse_x[i], diffuse_y[i], diffuse_z[i])
    positions_i = wp.vec3(positions_x[i], positions_y[i], positions_z[i])
    n = wp.normalize(surface_n_i)
    to_l = lamp - positions_i
    dist2 = wp.dot(to_l, to_l)
    l = to_l / wp.sqrt(dist2)
    ndotl = wp.max(wp.dot(n, l), 0.0) * 16.0 / dist2
    h = wp.normalize(l + wp.normalize(to_eye))
    spec = wp.pow(wp.max(wp.dot(n, h), 0.0), spec_power)
    color = diffuse_i * (ka[i] + ndotl) + wp.vec3(spec, spec, spec)
    color_x[i] = color[0]
    color_y[i] = color[1]
    color_z[i] = color[2]
