import warp as wp


@wp.kernel(enable_backward=False)
def xform_80cb405f2d(origins: wp.array[wp.vec3], rot: wp.array[wp.quat], root: wp.transform, points: wp.array[wp.vec3], p_local: wp.array[wp.vec3], verts: wp.array[wp.vec3], v_local: wp.array[wp.vec3], vel_world: wp.array[wp.vec3], shift: wp.vec3, world_points: wp.array[wp.vec3]):
    tid = wp.tid()
    q = wp.normalize(rot[tid])
    X = wp.transform(origins[tid], q)
    X_child = wp.mul(root, X)
    X_inv = wp.transform_inverse(X_child)
    p_local[tid] = wp.transform_point(X_inv, points[tid])
    p_world = wp.transform_point(X_child, verts[tid])
    v_world = wp.transform_vector(X_child, v_local[tid])
    vel_world[tid] = v_world
    world_points[tid] = p_world + shift
