import warp as wp


KE = wp.constant(4.0)


@wp.func
def xform_80cb405f2d_plane_distance(plane: wp.vec4, p: wp.vec3) -> float:
    normal = wp.vec3(plane.x, plane.y, plane.z)
    return wp.dot(normal, p) + plane.w

@wp.kernel
def xform_80cb405f2d(X_wb: wp.array[wp.transform], body_id: wp.array(dtype=wp.int32), x_local: wp.array[wp.vec3], vel: wp.array[wp.vec3], dir_out: wp.array[wp.vec3], out: wp.array(dtype=wp.vec3), halfspace: wp.vec4, offsets: wp.array[wp.vec3], out2: wp.array[wp.vec3]):
    tid = wp.tid()
    b = body_id[tid]
    X = X_wb[b]
    p = x_local[tid]
    p_world = wp.transform_point(X, p)
    r = vel[tid]
    v_world = wp.transform_vector(X, r)
    dir_out[tid] = v_world
    out[tid] = p_world
    r2 = offsets[tid]
    depth = wp.min(xform_80cb405f2d_plane_distance(halfspace, r2), 0.0)
    out2[tid] = -KE * depth * wp.vec3(halfspace[0], halfspace[1], halfspace[2])
