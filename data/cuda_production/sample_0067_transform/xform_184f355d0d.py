import warp as wp


CONTACT_KE = 7.625


@wp.func
def xform_184f355d0d_plane_sdf(plane: wp.vec4, p: wp.vec3) -> float:
    return wp.dot(wp.vec3(plane[0], plane[1], plane[2]), p) + plane[3]

@wp.kernel(enable_backward=False)
def xform_184f355d0d(com: wp.array(dtype=wp.vec3), q_offset: wp.quat, verts: wp.array(dtype=wp.vec3), offset: wp.vec3, world_points: wp.array[wp.vec3], ground_plane: wp.vec4, f_contact: wp.array[wp.vec3], w_body: wp.array[wp.vec3], v0: wp.vec3, scale: wp.array(dtype=wp.float32), vel_out: wp.array[wp.vec3]):
    tid = wp.tid()
    X = wp.transform(com[tid], q_offset)
    p = verts[tid]
    p_world = wp.transform_point(X, p)
    world_points[tid] = p_world + offset
    depth = wp.min(xform_184f355d0d_plane_sdf(ground_plane, p_world), 0.0)
    f_contact[tid] = -CONTACT_KE * depth * wp.vec3(ground_plane[0], ground_plane[1], ground_plane[2])
    w = w_body[tid]
    arm = p_world - wp.transform_get_translation(X)
    vel_out[tid] = scale[tid] * (v0 + wp.cross(w, arm))
