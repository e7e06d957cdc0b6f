import warp as wp


@wp.kernel(enable_backward=False)
def xform_1db1d9792c(X_wb: wp.transform, points: wp.array[wp.vec3], out: wp.array(dtype=wp.vec3), w_body: wp.array(dtype=wp.vec3), offsets: wp.array[wp.vec3], v_com: wp.vec3, v_point: wp.array[wp.vec3], xform: wp.transform, offset: wp.transform, points2: wp.array(dtype=wp.vec3), p_local: wp.array[wp.vec3]):
    tid = wp.tid()
    v = points[tid]
    p_world = wp.transform_point(X_wb, v)
    out[tid] = p_world
    p = w_body[tid]
    p2 = offsets[tid]
    W = wp.mat33(0.0, -p[2], p[1], p[2], 0.0, -p[0], -p[1], p[0], 0.0)
    v_point[tid] = (v_com + W * p2) - wp.vec3(-1.625, -0.3125, 0.9375)
    X_child = wp.mul(offset, xform)
    v2 = points2[tid]
    X_inv = wp.transform_inverse(X_child)
    p_local[tid] = wp.transform_point(X_inv, v2)
