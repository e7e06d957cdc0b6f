import warp as wp


RANGE = wp.constant(2.375)


@wp.kernel
def xform_0b4bf87971(frames: wp.array(dtype=wp.transform), x_local: wp.array(dtype=wp.vec3), dirs: wp.array(dtype=wp.vec3), dir_out: wp.array(dtype=wp.vec3), x_world: wp.array(dtype=wp.vec3), center: wp.vec3, stiffness: wp.float32, vel: wp.array(dtype=wp.vec3), kd: wp.float32, gain: wp.array(dtype=wp.float32), force: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    X = frames[tid]
    x = x_local[tid]
    p_world = wp.transform_point(X, x)
    d = dirs[tid]
    dir_out[tid] = wp.transform_vector(X, d)
    x_world[tid] = p_world
    d_i = p_world - center
    dist_sq = wp.length_sq(d_i)
    wgt = 1.0 - wp.smoothstep(0.0, RANGE * RANGE, dist_sq)
    v = vel[tid]
    g = gain[tid]
    force[tid] = g * (stiffness * wgt * d_i - kd * v)
