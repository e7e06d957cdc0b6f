import warp as wp


@wp.kernel
def xform_80cb405f2d(origins: wp.array[wp.vec3], rot: wp.array[wp.quat], root: wp.transform, points: wp.array[wp.vec3], p_local: wp.array[wp.vec3], x_world: wp.array[wp.vec3]):
    tid = wp.tid()
    q = wp.normalize(rot[tid])
    X = wp.transform(origins[tid], q)
    X_child = wp.mul(root, X)
    p = points[tid]
    X_inv = wp.transform_inverse(X_child)
    p_local[tid] = wp.transform_point(X_inv, p)
    x_world[tid] = wp.transform_point(X_child, p)
