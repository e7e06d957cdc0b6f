import warp as wp


DT = wp.constant(0.1875)
RANGE = wp.constant(2.375)


@wp.kernel
def xform_0b4bf87971(frames: wp.array(dtype=wp.transform), x_local: wp.array(dtype=wp.vec3), dirs: wp.array(dtype=wp.vec3), x_world: wp.array(dtype=wp.vec3), center: wp.vec3, stiffness: wp.float32, v_local: wp.array(dtype=wp.vec3), kd: wp.float32, gain: wp.array(dtype=wp.float32), force: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    X = frames[tid]
    x = x_local[tid]
    p_world = wp.transform_point(X, x)
    d = dirs[tid]
    v_world = wp.transform_vector(X, d)
    x_world[tid] = p_world + v_world * DT
    d2 = p_world - center
    dist = wp.sqrt(wp.length_sq(d2))
    wgt = 1.0 - wp.smoothstep(0.0, RANGE, dist)
    v = v_local[tid]
    g = gain[tid]
    force[tid] = g * (stiffness * wgt * d2 - kd * v)
