import warp as wp


STIFFNESS = wp.constant(1.375)


@wp.func
def signed_distance(plane: wp.vec4, p: wp.vec3) -> float:
    return plane[0] * p[0] + plane[1] * p[1] + plane[2] * p[2] + plane[3]

@wp.kernel(enable_backward=False)
def xform_38c3f41750(poses: wp.array[wp.transform], points: wp.array[wp.vec3], world_pos: wp.array[wp.vec3], ground_plane: wp.vec4, f_contact: wp.array[wp.vec3], w_body: wp.array[wp.vec3], v_com: wp.array[wp.vec3], v_point: wp.array[wp.vec3]):
    tid = wp.tid()
    X = poses[tid]
    p = points[tid]
    p_world = wp.transform_point(X, p)
    world_pos[tid] = p_world
    depth = wp.min(signed_distance(ground_plane, p_world), 0.0)
    f_contact[tid] = -STIFFNESS * depth * wp.vec3(ground_plane[0], ground_plane[1], ground_plane[2])
    w = w_body[tid]
    arm = p_world - wp.transform_get_translation(X)
    q_body = wp.transform_get_rotation(X)
    w_world = wp.quat_rotate(q_body, w)
    v_c = v_com[tid]
    v_point[tid] = v_c + wp.cross(w_world, arm)
