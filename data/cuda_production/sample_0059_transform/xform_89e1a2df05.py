import warp as wp


STIFFNESS = 2.4375


@wp.func
def plane_sdf(plane: wp.vec4, p: wp.vec3) -> float:
    return plane[0] * p[0] + plane[1] * p[1] + plane[2] * p[2] + plane[3]

@wp.kernel
def xform_89e1a2df05(com: wp.array(dtype=wp.vec3), body_rot: wp.array(dtype=wp.quat), verts: wp.array(dtype=wp.vec3), shift: wp.vec3, x_world: wp.array(dtype=wp.vec3), ground_plane: wp.vec4, scale: wp.array(dtype=float), f_contact: wp.array(dtype=wp.vec3), omega_world: wp.array(dtype=wp.vec3), v_com: wp.vec3, vel_out: wp.array(dtype=wp.vec3)):
    tid = wp.tid()
    q = wp.normalize(body_rot[tid])
    X = wp.transform(com[tid], q)
    p = verts[tid]
    p_world = wp.transform_point(X, p)
    x_world[tid] = p_world + shift
    depth = wp.min(plane_sdf(ground_plane, p_world), 0.0)
    s = scale[tid]
    f_contact[tid] = s * (-STIFFNESS * depth * wp.vec3(ground_plane[0], ground_plane[1], ground_plane[2]))
    w = omega_world[tid]
    arm = p_world - wp.transform_get_translation(X)
    W = wp.mat33(0.0, -w[2], w[1], w[2], 0.0, -w[0], -w[1], w[0], 0.0)
    vel_out[tid] = v_com + W * arm
