import warp as wp


STIFFNESS = 6.0


@wp.func
def plane_distance(plane: wp.vec4, p: wp.vec3) -> float:
    return wp.dot(wp.vec3(plane[0], plane[1], plane[2]), p) + plane[3]

@wp.kernel(enable_backward=False)
def xform_184f355d0d(com: wp.array(dtype=wp.vec3), q_offset: wp.quat, verts: wp.array(dtype=wp.vec3), offset: wp.vec3, world_points: wp.array(dtype=wp.vec3), halfspace: wp.vec4, scale: wp.array(dtype=float), f_contact: wp.array(dtype=wp.vec3), ang_vel: wp.array(dtype=wp.vec3), lin_vel: wp.vec3, v_point: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    X = wp.transform(com[tid], q_offset)
    p_world = wp.transform_point(X, verts[tid])
    world_points[tid] = p_world + offset
    depth = wp.min(plane_distance(halfspace, p_world), 0.0)
    f_contact[tid] += scale[tid] * (-STIFFNESS * depth * wp.vec3(halfspace[0], halfspace[1], halfspace[2]))
    w = ang_vel[tid]
    arm = p_world - wp.transform_get_translation(X)
    W = wp.mat33(0.0, -w[2], w[1], w[2], 0.0, -w[0], -w[1], w[0], 0.0)
    v_point[tid] = lin_vel + W * arm
