import warp as wp


KE = wp.constant(2.375)
FRAME_DT = 0.4375
DT = 0.125


@wp.func
def xform_5ba78f6f49_plane_distance(plane: wp.vec4, p: wp.vec3) -> float:
    normal = wp.vec3(plane.x, plane.y, plane.z)
    return wp.dot(normal, p) + plane.w

@wp.kernel
def xform_5ba78f6f49(plane: wp.vec4, x_local: wp.array(dtype=wp.vec3), contact_force: wp.array[wp.vec3], origins: wp.array[wp.vec3], axis: wp.vec3, omega: wp.array[wp.float32], anchors: wp.array(dtype=wp.vec3), dirs: wp.array[wp.vec3], weights: wp.array[wp.float32], out: wp.array(dtype=wp.vec3), poses: wp.array[wp.transform], body_id: wp.array(dtype=wp.int32), root: wp.transform, out2: wp.array(dtype=wp.vec3), q_out: wp.array(dtype=wp.quat)):
    tid = wp.tid()
    r = x_local[tid]
    depth = wp.min(xform_5ba78f6f49_plane_distance(plane, r), 0.0)
    contact_force[tid] = -KE * depth * wp.vec3(plane[0], plane[1], plane[2])
    q = wp.quat_from_axis_angle(wp.normalize(axis), omega[tid] * FRAME_DT)
    X = wp.transform(origins[tid], q)
    r2 = anchors[tid]
    p_world = wp.transform_point(X, r2)
    r3 = dirs[tid]
    v_world = wp.transform_vector(X, r3)
    out[tid] = weights[tid] * (p_world + v_world * DT)
    b = body_id[tid]
    X2 = poses[b]
    X_child = wp.mul(root, X2)
    t = wp.transform_get_translation(X_child)
    rq = wp.transform_get_rotation(X_child)
    out2[tid] = wp.quat_rotate(rq, t)
    q_out[tid] = rq
